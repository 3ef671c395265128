"""Space-time memory read with top-k filtering (STM + "KMN/top-k" trick) for video segmentation.

Affinity is a scaled dot product between memory keys (all pixels of the T memory frames)
and query keys, laid out memory-major (B, THW, HW). For each query pixel only the k most
similar memory pixels are kept. Since torch.topk returns values sorted in descending order,
the first column is the row maximum and is used as the stabiliser of the exponential.
"""
import math

import torch
import torch.nn as nn


def topk_softmax(affinity, k):
    """affinity: (B, N_mem, N_q). Sparse softmax over the memory axis."""
    values, idx = torch.topk(affinity, k=k, dim=1)
    values = torch.exp(values - values[:, :1])
    values = values / values.sum(dim=1, keepdim=True)
    return torch.zeros_like(affinity).scatter_(1, idx, values)


class SpaceTimeMemory(nn.Module):
    def __init__(self, ck=16, cv=32, top_k=6):
        super().__init__()
        self.top_k = top_k
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 4, 4), nn.ReLU())
        self.key = nn.Conv2d(32, ck, 3, 1, 1)
        self.mask_stem = nn.Conv2d(1, 32, 4, 4)
        self.value = nn.Conv2d(32, cv, 3, 1, 1)
        self.head = nn.Sequential(nn.Conv2d(cv + 32, 16, 3, 1, 1), nn.ReLU(), nn.Conv2d(16, 1, 1))

    def forward(self, query_frame, memory_frames, memory_masks):
        B, T = memory_frames.shape[:2]
        fq = self.stem(query_frame)
        qk = self.key(fq)  # (B, Ck, H, W)
        Ck, H, W = qk.shape[1:]
        fm = self.stem(memory_frames.flatten(0, 1))
        mk = self.key(fm).view(B, T, Ck, H * W).permute(0, 1, 3, 2).reshape(B, T * H * W, Ck)
        mv = self.value(fm + self.mask_stem(memory_masks.flatten(0, 1)))
        mv = mv.view(B, T, -1, H * W).permute(0, 2, 1, 3).reshape(B, -1, T * H * W)  # (B, Cv, THW)
        affinity = torch.bmm(mk, qk.flatten(2)) / math.sqrt(Ck)  # (B, THW, HW)
        weights = topk_softmax(affinity, self.top_k)
        read = torch.bmm(mv, weights).view(B, -1, H, W)
        return self.head(torch.cat([read, fq], 1))


def build():
    torch.manual_seed(0)
    model = SpaceTimeMemory().eval()
    q = torch.rand(3, 3, 16, 16)
    mem = torch.rand(3, 2, 3, 16, 16)
    masks = (torch.rand(3, 2, 1, 16, 16) > 0.5).float()
    return model, (q, mem, masks)
