"""Returns, states and actions interleaved into one causal sequence (a decision transformer), left padded.

Each input (returns-to-go, states, actions, timesteps) has its own tensor but they share one
set of positions: the model adds their embeddings position by position. Padding known from
the mask input covers all of them, and the real positions never read the padded ones.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class TrajectoryModel(nn.Module):
    def __init__(self, state_dim: int = 4, act_dim: int = 2, width: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.time = nn.Embedding(64, width)
        self.ret, self.state, self.act = nn.Linear(1, width), nn.Linear(state_dim, width), nn.Linear(act_dim, width)
        self.qkv, self.out = nn.Linear(width, 3 * width), nn.Linear(width, act_dim)

    def forward(self, returns, states, actions, steps, keep):
        b, k = states.shape[:2]
        when = self.time(steps)
        tokens = torch.stack((self.ret(returns) + when, self.state(states) + when, self.act(actions) + when), dim=2)
        h = tokens.reshape(b, 3 * k, -1)
        q, key, v = (t.unflatten(-1, (self.heads, -1)).transpose(1, 2) for t in self.qkv(h).chunk(3, dim=-1))
        visible = torch.ones(3 * k, 3 * k, dtype=torch.bool).tril() & keep.repeat_interleave(3, dim=1).bool()[:, None, None, :]
        y = F.scaled_dot_product_attention(q, key, v, attn_mask=visible)
        y = y.transpose(1, 2).reshape(b, 3 * k, -1).reshape(b, k, 3, -1)
        return self.out(y[:, :, 1])


def build():
    torch.manual_seed(0)
    b, k = 2, 6
    keep = torch.ones(b, k, dtype=torch.long)
    keep[1, :2] = 0
    steps = torch.arange(k).repeat(b, 1) * keep
    states, actions, returns = torch.randn(b, k, 4), torch.randn(b, k, 2), torch.randn(b, k, 1)
    return TrajectoryModel().eval(), (returns, states, actions, steps, keep)
