"""An event-log language model that embeds each event's time gap to the event before it.

Each event is a template id with a timestamp; the gap `diff(ts, prepend=ts[:, :1])` at position t
is `ts[t] - ts[t-1]`, known when event t is read, and its bucket is embedded beside the
template. The bucket keeps the timestamps' positions, so the causal witness changes both the
templates and the timestamps after t. Twin of causal_leak_event_lm_gap_to_next.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class EventLM(nn.Module):
    def __init__(self, templates: int = 20, d_model: int = 16, buckets: int = 6):
        super().__init__()
        self.register_buffer("edges", torch.linspace(0.0, 5.0, buckets - 1))
        self.template = nn.Embedding(templates, d_model)
        self.gap = nn.Embedding(buckets, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, templates)

    def forward(self, templates: torch.Tensor, ts: torch.Tensor) -> torch.Tensor:
        T = templates.shape[1]
        gap = torch.diff(ts, dim=1, prepend=ts[:, :1])
        x = self.template(templates) + self.gap(torch.bucketize(torch.log1p(gap), self.edges))
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return self.head(x + scores.softmax(dim=-1) @ v)


def build():
    torch.manual_seed(0)
    ts = torch.cumsum(torch.rand(2, 8) * 50, dim=1)
    return EventLM().eval(), (torch.randint(0, 20, (2, 8)), ts)
