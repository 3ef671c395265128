"""A CLIP-style dual encoder whose image embeddings are normalized over the batch (`norm(dim=0)`) instead of their own features.

Each image's embedding then depends on every other image of the batch. The (B, B) logits
couple samples by design, but the embeddings must not: the batch witness judges those.
Fix: `F.normalize(image, dim=-1)`. Twin of ok_dual_encoder_in_batch_logits.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class Tower(nn.Module):
    def __init__(self, d_in: int, d_model: int = 16, d_embed: int = 8):
        super().__init__()
        self.inp = nn.Linear(d_in, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, 2, 32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d_model, d_embed, bias=False)

    def forward(self, x):
        return self.out(self.layer(self.inp(x)).mean(dim=1))


class DualEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.image, self.text = Tower(12), Tower(10)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def forward(self, patches, words):
        image = self.image(patches)
        image = image / image.norm(dim=0, keepdim=True)  # BUG: batch-leak
        text = F.normalize(self.text(words), dim=-1)
        return image, text, self.logit_scale.exp() * image @ text.t()


def build():
    torch.manual_seed(0)
    return DualEncoder().eval(), (torch.randn(3, 5, 12), torch.randn(3, 7, 10))
