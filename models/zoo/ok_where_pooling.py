"""A padded classifier with attention and masked mean pooling over `torch.where(keep, h, 0)`: correct.

Twin of mask_polarity_where_pooling: the pooling takes the states where the token is kept,
so the class scores do not depend on what the padded positions hold.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class PooledClassifier(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, classes: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, classes)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        keep = attention_mask.bool()
        scores = scores.masked_fill(~keep[:, None, :], float("-inf"))
        h = h + F.softmax(scores, dim=-1) @ v
        kept = torch.where(keep[..., None], h, torch.zeros_like(h))
        pooled = kept.sum(1) / keep.sum(1, keepdim=True)
        return self.head(pooled)


def build():
    torch.manual_seed(0)
    model = PooledClassifier().eval()
    ids = torch.randint(1, 40, (3, 7))
    attention_mask = torch.ones(3, 7, dtype=torch.long)
    attention_mask[0, 5:] = 0
    attention_mask[2, 3:] = 0
    ids[attention_mask == 0] = 0
    return model, (ids, attention_mask)
