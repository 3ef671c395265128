"""A robot policy over task tokens and padded history steps, as many of each, masked through one joined key mask.

The tokens are the task's language tokens followed by every history step's observation tokens;
the key mask is joined the same way, from nothing hidden for the task and the step mask
repeated once per observation token. Four task tokens and four steps: only the way the mask is
joined tells that it pads the steps, not the task. Twin of padding_leak_policy_task_mask_inverted.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class Policy(nn.Module):
    def __init__(self, lang_dim: int = 12, obs_dim: int = 10, d_model: int = 16, tokens_per_step: int = 2):
        super().__init__()
        self.tokens_per_step = tokens_per_step
        self.task = nn.Linear(lang_dim, d_model)
        self.observe = nn.Linear(obs_dim, d_model)
        self.step_pos = nn.Parameter(torch.randn(8, 1, d_model) * 0.02)
        self.attend = nn.MultiheadAttention(d_model, 2, batch_first=True)
        self.act = nn.Linear(d_model, 4)

    def forward(self, task_tokens, obs, step_pad):
        B, L, K, _ = obs.shape
        steps = (self.observe(obs) + self.step_pos[:L]).flatten(1, 2)
        x = torch.cat([self.task(task_tokens), steps], dim=1)
        hidden = torch.cat([step_pad.new_zeros(B, task_tokens.shape[1]), step_pad.repeat_interleave(K, dim=1)], dim=1)
        x = x + self.attend(x, x, x, key_padding_mask=hidden, need_weights=False)[0]
        return self.act(x[:, task_tokens.shape[1]:].reshape(B, L, K, -1).mean(2))


def build():
    torch.manual_seed(0)
    step_pad = torch.tensor([[True, False, False, False], [False, False, False, False]])
    return Policy().eval(), (torch.randn(2, 4, 12), torch.randn(2, 4, 2, 10), step_pad)
