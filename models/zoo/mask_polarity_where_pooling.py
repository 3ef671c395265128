"""A padded classifier whose masked mean pooling swaps `torch.where`'s branches: the real tokens are zeroed and the padding is pooled.

`torch.where(cond, a, b)` takes `a` where `cond` is True. With `cond = keep` the pooling
must take the states where the token is kept: `torch.where(keep, h, 0)`. Written the other
way round, every real token is dropped and the padded positions are summed instead, so the
class scores depend on whatever the padding holds. Fix: `torch.where(keep, h, torch.zeros_like(h))`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("mask-polarity",)


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
        kept = torch.where(keep[..., None], torch.zeros_like(h), h)  # BUG: mask-polarity
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
