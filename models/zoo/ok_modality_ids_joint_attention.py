"""Image patches and text tokens in one row, told apart by `modality` ids, read by one joint attention: correct.

`modality` (0 = image patch, 1 = text token) picks which embedding each position gets;
the attention then runs over both on purpose, the text reading the image. The ids form
runs like packed documents, but nothing keeps them apart: they are compared with one value,
never with each other.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class JointEncoder(nn.Module):
    def __init__(self, vocab: int = 30, patch_dim: int = 12, d_model: int = 16):
        super().__init__()
        self.text = nn.Embedding(vocab, d_model)
        self.patch = nn.Linear(patch_dim, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, tokens, patches, modality):
        is_text = (modality == 1)[..., None]
        x = torch.where(is_text, self.text(tokens), self.patch(patches))
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        weights = (q @ k.transpose(1, 2) / math.sqrt(x.shape[-1])).softmax(dim=-1)
        return self.out(weights @ v)


def build():
    torch.manual_seed(0)
    modality = torch.tensor([[0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1]])
    return JointEncoder().eval(), (torch.randint(0, 30, (2, 8)), torch.randn(2, 8, 12), modality)
