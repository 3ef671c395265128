"""Knowledge tracing whose questions attend to the interaction history shifted one step behind them.

History slot t holds the interaction of step t - 1 (slot 0 a learned start token): it is joined
from the start token and the interactions cut to their first T - 1, so it is as long as the
questions by construction, position for position. A causal mask built over the questions'
length therefore fits the (questions, history) scores. Twin of axis_mismatch_knowledge_tracing_other_history.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class KnowledgeTracer(nn.Module):
    def __init__(self, questions: int = 30, d_model: int = 16):
        super().__init__()
        self.question = nn.Embedding(questions + 1, d_model)
        self.interaction = nn.Embedding(2 * questions + 1, d_model)
        self.start = nn.Parameter(torch.randn(1, 1, d_model) * 0.02)
        self.q, self.k, self.v = (nn.Linear(d_model, d_model) for _ in range(3))
        self.predict = nn.Linear(d_model, 1)

    def forward(self, questions: torch.Tensor, interactions: torch.Tensor) -> torch.Tensor:
        B, T = questions.shape
        x = self.question(questions)
        history = torch.cat([self.start.expand(B, 1, -1), self.interaction(interactions)[:, :-1]], dim=1)
        allowed = torch.ones(T, T, dtype=torch.bool).tril()
        x = x + self.attend(x, x, x, allowed)
        return self.predict(x + self.attend(x, history, history, allowed)).squeeze(-1)

    def attend(self, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
        scores = self.q(queries) @ self.k(keys).transpose(1, 2) / math.sqrt(queries.shape[-1])
        weights = scores.masked_fill(~allowed, float("-inf")).softmax(dim=-1)
        return weights @ self.v(values)


def build():
    torch.manual_seed(0)
    questions = torch.randint(1, 31, (2, 8))
    interactions = questions + 30 * torch.randint(0, 2, (2, 8))
    return KnowledgeTracer().eval(), (questions, interactions)
