"""Knowledge tracing whose questions attend to another student's history, masked as if it were their own.

The history is a peer's latest interactions, cut to as many as the student has questions; the
causal mask built over the questions' length is applied to its keys, so "earlier" is read
across two sequences that share no positions. Fix: shift the student's own
interactions one step behind the questions (`cat([start, interactions[:, :-1]])`). Twin of
ok_knowledge_tracing_shifted_history.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("axis-mismatch",)


class KnowledgeTracer(nn.Module):
    def __init__(self, questions: int = 30, d_model: int = 16):
        super().__init__()
        self.question = nn.Embedding(questions + 1, d_model)
        self.interaction = nn.Embedding(2 * questions + 1, d_model)
        self.q, self.k, self.v = (nn.Linear(d_model, d_model) for _ in range(3))
        self.predict = nn.Linear(d_model, 1)

    def forward(self, questions: torch.Tensor, peer_interactions: torch.Tensor) -> torch.Tensor:
        B, T = questions.shape
        x = self.question(questions)
        history = self.interaction(peer_interactions[:, -T:])
        allowed = torch.ones(T, T, dtype=torch.bool).tril()
        x = x + self.attend(x, x, x, allowed)
        return self.predict(x + self.attend(x, history, history, allowed)).squeeze(-1)

    def attend(self, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
        scores = self.q(queries) @ self.k(keys).transpose(1, 2) / math.sqrt(queries.shape[-1])
        weights = scores.masked_fill(~allowed, float("-inf")).softmax(dim=-1)  # BUG: axis-mismatch
        return weights @ self.v(values)


def build():
    torch.manual_seed(0)
    questions = torch.randint(1, 31, (2, 8))
    peer_interactions = torch.randint(1, 61, (2, 12))
    return KnowledgeTracer().eval(), (questions, peer_interactions)
