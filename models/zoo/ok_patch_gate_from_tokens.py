"""Correct: gated cross-attention of caption tokens over image patches, the gate computed from the tokens.

Trap for a checker that cannot tell patches from tokens: there are as many patches as
tokens, and only where each operand came from says the gate and the update are aligned.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class GatedCrossAttention(nn.Module):
    def __init__(self, width: int = 16):
        super().__init__()
        self.attend = nn.MultiheadAttention(width, 2, batch_first=True)
        self.gate = nn.Linear(width, width)

    def forward(self, tokens, patches):                       # (B, L, d), (B, N, d)
        update, _ = self.attend(tokens, patches, patches, need_weights=False)
        gate = torch.sigmoid(self.gate(tokens))
        return tokens + gate * update


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
