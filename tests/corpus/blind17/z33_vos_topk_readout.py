"""Memory reading for semi-supervised video object segmentation (XMem/STCN-style).

Keys of past frames form the memory. The affinity between a memory key k_i and a query key q_j
is the negative squared L2 distance weighted by the memory shrinkage term s_i and the query
selection term e_j. Only the top-k memory entries per query pixel are kept and normalised.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_similarity(mk, ms, qk, qe):
    """mk: (B, Ck, N), ms: (B, 1, N), qk: (B, Ck, HW), qe: (B, Ck, HW) -> (B, N, HW)"""
    CK = mk.shape[1]
    mk = mk.transpose(1, 2)
    a_sq = (mk.pow(2) @ qe)
    two_ab = 2 * (mk @ (qk * qe))
    b_sq = (qe * qk.pow(2)).sum(1, keepdim=True)
    similarity = -a_sq + two_ab - b_sq
    return similarity * ms.transpose(1, 2) / math.sqrt(CK)


def do_softmax(similarity, top_k):
    """top-k softmax over the memory axis (dim=1)."""
    values, indices = torch.topk(similarity, k=top_k, dim=1)
    x_exp = values.exp()
    x_exp = x_exp / torch.sum(x_exp, dim=1, keepdim=True)
    affinity = torch.zeros_like(similarity).scatter_(1, indices, x_exp)
    return affinity


class MemoryReader(nn.Module):
    def __init__(self, key_dim=16, val_dim=32, top_k=8):
        super().__init__()
        self.top_k = top_k
        self.key_enc = nn.Sequential(nn.Conv2d(3, 32, 4, 4), nn.ReLU(), nn.Conv2d(32, 32, 1))
        self.key_proj = nn.Conv2d(32, key_dim, 1)
        self.d_proj = nn.Conv2d(32, 1, 1)
        self.e_proj = nn.Conv2d(32, key_dim, 1)
        self.value_enc = nn.Sequential(nn.Conv2d(4, val_dim, 4, 4), nn.ReLU(), nn.Conv2d(val_dim, val_dim, 1))
        self.decoder = nn.Sequential(nn.Conv2d(val_dim + 32, 32, 3, 1, 1), nn.ReLU(), nn.Conv2d(32, 1, 1))

    def encode_key(self, frame):
        f = self.key_enc(frame)
        key = self.key_proj(f)
        shrinkage = self.d_proj(f) ** 2 + 1
        selection = torch.sigmoid(self.e_proj(f))
        return f, key, shrinkage, selection

    def forward(self, frame, mem_frames, mem_masks):
        B, T = mem_frames.shape[:2]
        feat, qk, _, qe = self.encode_key(frame)
        _, h, w = qk.shape[1:]
        _, mk, ms, _ = self.encode_key(mem_frames.flatten(0, 1))
        mv = self.value_enc(torch.cat([mem_frames, mem_masks], 2).flatten(0, 1))
        mk = mk.view(B, T, -1, h * w).permute(0, 2, 1, 3).flatten(2)
        ms = ms.view(B, T, 1, h * w).permute(0, 2, 1, 3).flatten(2)
        mv = mv.view(B, T, -1, h * w).permute(0, 2, 1, 3).flatten(2)
        sim = get_similarity(mk, ms, qk.flatten(2), qe.flatten(2))
        affinity = do_softmax(sim, self.top_k)
        readout = (mv @ affinity).view(B, -1, h, w)
        return self.decoder(torch.cat([readout, feat], 1))


def build():
    torch.manual_seed(0)
    model = MemoryReader().eval()
    with torch.no_grad():  # trained key heads produce well-separated, large-norm keys
        model.key_proj.weight.normal_(0.0, 24.0)
        model.d_proj.weight.normal_(0.0, 3.0)
    frame = torch.rand(2, 3, 16, 16)
    mem_frames = torch.rand(2, 3, 3, 16, 16)
    mem_masks = (torch.rand(2, 3, 1, 16, 16) > 0.5).float()
    return model, (frame, mem_frames, mem_masks)
