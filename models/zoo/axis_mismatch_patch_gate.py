"""Gated cross-attention of caption tokens over image patches, with the gate computed from the patches.

The gate must weigh each *caption token's* update, so it comes from the tokens; computed from
the patches it has one row per patch, and `gate * update` pairs patch i with token i. Here
there are as many patches as tokens, so the shapes agree and nothing fails.
Fix: `gate = torch.sigmoid(self.gate(tokens))`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("axis-mismatch",)


class GatedCrossAttention(nn.Module):
    def __init__(self, width: int = 16):
        super().__init__()
        self.attend = nn.MultiheadAttention(width, 2, batch_first=True)
        self.gate = nn.Linear(width, width)

    def forward(self, tokens, patches):                       # (B, L, d), (B, N, d)
        update, _ = self.attend(tokens, patches, patches, need_weights=False)
        gate = torch.sigmoid(self.gate(patches))
        return tokens + gate * update  # BUG: axis-mismatch


class Captioner(nn.Module):
    def __init__(self, vocab: int = 30, width: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.patchify = nn.Conv2d(3, width, kernel_size=4, stride=4)
        self.cross = GatedCrossAttention(width)
        self.logits = nn.Linear(width, vocab)

    def forward(self, ids, image):
        patches = self.patchify(image).flatten(2).transpose(1, 2)
        return self.logits(self.cross(self.embed(ids), patches))


def build():
    torch.manual_seed(0)
    return Captioner().eval(), (torch.randint(0, 30, (2, 4)), torch.randn(2, 3, 8, 8))   # 4 tokens, 4 patches
