"""AKT-style knowledge tracing (Ghosh et al., KDD 2020): monotonic attention with context-aware decay.

The interaction history is shifted by one step: history slot t holds the interaction (question,
correctness) of step t-1 and slot 0 a learned <start> interaction, so question t may attend to
history slots 0..t, which are exactly the interactions before step t. Monotonic attention scales
every logit by exp(-theta * d(t, tau)), where the context-aware distance d grows with |t - tau|
and with the attention mass lying between tau and t (computed without gradient, as in the
reference implementation).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MonotonicAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qk = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.gammas = nn.Parameter(torch.randn(heads, 1, 1) * 0.5)

    def forward(self, query, key, value, allowed):
        B, T, D = query.shape
        split = lambda t: t.view(B, T, self.heads, self.dh).transpose(1, 2)
        q, k, v = split(self.qk(query)), split(self.qk(key)), split(self.v(value))
        scores = q @ k.transpose(-1, -2) / self.dh ** 0.5
        pos = torch.arange(T, device=query.device)
        with torch.no_grad():
            p = scores.masked_fill(~allowed, -1e32).softmax(dim=-1) * allowed
            remaining = p.sum(dim=-1, keepdim=True) - p.cumsum(dim=-1)
            dist = (remaining * (pos[:, None] - pos[None, :]).abs()).clamp(min=0.0).sqrt()
        theta = -F.softplus(self.gammas)
        decay = torch.exp(dist * theta).clamp(1e-5, 1e5)
        attn = (scores * decay).masked_fill(~allowed, -1e32).softmax(dim=-1)
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class AKT(nn.Module):
    def __init__(self, n_questions=60, dim=32, heads=4):
        super().__init__()
        self.n_questions = n_questions
        self.q_emb = nn.Embedding(n_questions + 1, dim, padding_idx=0)
        self.qa_emb = nn.Embedding(2 * n_questions + 1, dim, padding_idx=0)
        self.start = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.q_self, self.h_self, self.retriever = (MonotonicAttention(dim, heads) for _ in range(3))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(3))
        self.pred = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Dropout(0.1), nn.Linear(dim, 1))

    def forward(self, questions, responses):
        B, T = questions.shape
        interactions = torch.where(questions > 0, questions + self.n_questions * responses, 0)
        x = self.q_emb(questions)
        history = torch.cat([self.start.expand(B, 1, -1), self.qa_emb(interactions)[:, :-1]], dim=1)
        hist_q = torch.cat([self.start.expand(B, 1, -1), x[:, :-1]], dim=1)
        allowed = torch.ones(T, T, dtype=torch.bool, device=questions.device).tril()
        x = self.norms[0](x + self.q_self(x, x, x, allowed))
        h = self.norms[1](history + self.h_self(history, history, history, allowed))
        r = self.norms[2](x + self.retriever(x, hist_q, h, allowed))
        return self.pred(torch.cat([r, x], dim=-1)).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = AKT().eval()
    questions = torch.randint(1, 61, (3, 16))
    responses = torch.randint(0, 2, (3, 16))
    questions[2, 11:] = 0
    responses[2, 11:] = 0
    return model, (questions, responses)
