"""A CLIP-style dual encoder that returns each image's and each caption's embedding, normalized over its own features, and the in-batch similarity table: correct.

The (B, B) logits compare every image with every caption of the batch: they couple samples
by design and the batch witness leaves them alone. The embeddings are each sample's own and
must depend on that sample only, which the batch witness checks. Twin of
batch_leak_embeddings_normalized_over_batch.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


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
        image = F.normalize(self.image(patches), dim=-1)
        text = F.normalize(self.text(words), dim=-1)
        return image, text, self.logit_scale.exp() * image @ text.t()


def build():
    torch.manual_seed(0)
    return DualEncoder().eval(), (torch.randn(3, 5, 12), torch.randn(3, 7, 10))
