"""Counting-aware VQA head: the question embedding cross-attends to the region features with
torch's nn.MultiheadAttention, followed by a small fusion MLP.

`boxes_valid` comes from the detector's output padding: 1 for a kept detection, 0 for a
padded slot.
"""
import torch
import torch.nn as nn


class RegionFusion(nn.Module):
    def __init__(self, d=48, heads=4, v_dim=36):
        super().__init__()
        self.v_in = nn.Sequential(nn.Linear(v_dim, d), nn.LayerNorm(d))
        self.box_in = nn.Linear(4, d)
        self.cross = nn.MultiheadAttention(d, heads, batch_first=True)
        self.fuse = nn.Sequential(nn.Linear(2 * d, d), nn.GELU(), nn.Linear(d, d))

    def forward(self, q_vec, region_feats, boxes, boxes_valid):
        v = self.v_in(region_feats) + self.box_in(boxes)
        attended, _ = self.cross(q_vec.unsqueeze(1), v, v, key_padding_mask=boxes_valid.bool())
        return self.fuse(torch.cat([q_vec, attended.squeeze(1)], dim=-1))


class CountingVQA(nn.Module):
    def __init__(self, vocab=150, d=48, n_answers=20):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.encoder = nn.LSTM(d, d, batch_first=True)
        self.fusion = RegionFusion(d)
        self.answer = nn.Linear(d, n_answers)

    def forward(self, question, region_feats, boxes, boxes_valid):
        _, (h, _) = self.encoder(self.emb(question))
        return self.answer(self.fusion(h[-1], region_feats, boxes, boxes_valid))


def build():
    torch.manual_seed(0)
    model = CountingVQA().eval()
    question = torch.randint(0, 150, (4, 8))
    feats = torch.randn(4, 10, 36)
    boxes = torch.rand(4, 10, 4)
    valid = torch.ones(4, 10, dtype=torch.long)
    valid[0, 6:] = 0
    valid[1, 3:] = 0
    valid[2, 9:] = 0
    valid[3, 8:] = 0
    return model, (question, feats, boxes, valid)
