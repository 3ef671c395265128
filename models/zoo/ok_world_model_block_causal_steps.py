"""A token world model attending block-causally over steps: every step's frame codes and action are one block.

Each step contributes its K frame codes and its action, flattened into one sequence of steps ×
(K + 1) tokens. A token sees its own step and every earlier one, so the mask numbers blocks by
`position // (K + 1)`. Seen step by step, the mask is causal: the causal witness changes the
steps after t (codes and actions) and protects every token of the steps up to t. Twin of
causal_leak_world_model_block_size.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()
CODES_PER_FRAME = 4


class WorldModel(nn.Module):
    def __init__(self, codes: int = 32, actions: int = 5, d_model: int = 16):
        super().__init__()
        self.code = nn.Embedding(codes, d_model)
        self.action = nn.Embedding(actions, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.predict = nn.Linear(d_model, codes)

    def forward(self, frame_codes: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        tokens = torch.cat([self.code(frame_codes), self.action(actions).unsqueeze(2)], dim=2).flatten(1, 2)
        q, k, v = self.qkv(tokens).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        block = torch.arange(tokens.shape[1]) // (CODES_PER_FRAME + 1)
        scores = scores.masked_fill(block[None, :] > block[:, None], float("-inf"))
        return self.predict(tokens + scores.softmax(dim=-1) @ v)


def build():
    torch.manual_seed(0)
    return WorldModel().eval(), (torch.randint(0, 32, (2, 4, CODES_PER_FRAME)), torch.randint(0, 5, (2, 4)))
