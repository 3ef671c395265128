"""A token world model whose block-causal mask numbers its blocks by the frame's codes alone, forgetting the action token.

Each step contributes its K frame codes and its action, flattened into one sequence of steps ×
(K + 1) tokens, but the blocks are `position // K`: the blocks drift against the steps, so a
step's last tokens read the next step's first codes. Seen step by step the mask still moves
with the query, so the causal witness runs and shows the leak. Fix: `// (CODES_PER_FRAME + 1)`.
Twin of ok_world_model_block_causal_steps.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-leak",)
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
        block = torch.arange(tokens.shape[1]) // CODES_PER_FRAME
        scores = scores.masked_fill(block[None, :] > block[:, None], float("-inf"))  # BUG: causal-leak
        return self.predict(tokens + scores.softmax(dim=-1) @ v)


def build():
    torch.manual_seed(0)
    return WorldModel().eval(), (torch.randint(0, 32, (2, 4, CODES_PER_FRAME)), torch.randint(0, 5, (2, 4)))
