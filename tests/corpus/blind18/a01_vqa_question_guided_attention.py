"""Question-guided attention over detected image regions (bottom-up/top-down VQA).

Each question token attends over the region features of its image; images come with a
variable number of detected boxes, so the region tensor is padded and `region_mask`
(1 = real box) tells which slots hold a detection.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QuestionGuidedAttention(nn.Module):
    def __init__(self, q_dim, v_dim, hid, heads=4):
        super().__init__()
        self.heads = heads
        self.d_head = hid // heads
        self.q_proj = nn.Linear(q_dim, hid)
        self.k_proj = nn.Linear(v_dim, hid)
        self.v_proj = nn.Linear(v_dim, hid)
        self.out = nn.Linear(hid, q_dim)

    def forward(self, q_feats, regions, region_mask):
        B, Lq, _ = q_feats.shape
        N = regions.size(1)
        q = self.q_proj(q_feats).view(B, Lq, self.heads, self.d_head).permute(0, 2, 1, 3)
        k = self.k_proj(regions).view(B, N, self.heads, self.d_head).permute(0, 2, 3, 1)
        v = self.v_proj(regions).view(B, N, self.heads, self.d_head).permute(0, 2, 1, 3)
        logits = torch.matmul(q, k) / math.sqrt(self.d_head)
        keep = region_mask[:, None, None, :].bool()
        logits = logits.masked_fill(~keep, float("-inf"))
        att = logits.softmax(dim=-1)
        ctx = torch.matmul(att, v).permute(0, 2, 1, 3).reshape(B, Lq, -1)
        return q_feats + self.out(ctx)


class TopDownVQA(nn.Module):
    def __init__(self, vocab=200, n_answers=30, d=48, v_dim=40):
        super().__init__()
        self.word_emb = nn.Embedding(vocab, d, padding_idx=0)
        self.q_rnn = nn.GRU(d, d, batch_first=True)
        self.v_norm = nn.LayerNorm(v_dim)
        self.att1 = QuestionGuidedAttention(d, v_dim, d)
        self.att2 = QuestionGuidedAttention(d, v_dim, d)
        self.classifier = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, n_answers))

    def forward(self, question, regions, region_mask):
        q, _ = self.q_rnn(self.word_emb(question))
        v = self.v_norm(regions)
        q = self.att1(q, v, region_mask)
        q = self.att2(q, v, region_mask)
        return self.classifier(q[:, -1])


def build():
    torch.manual_seed(0)
    model = TopDownVQA().eval()
    question = torch.randint(1, 200, (3, 9))
    regions = torch.randn(3, 12, 40)
    region_mask = torch.ones(3, 12, dtype=torch.long)
    region_mask[0, 7:] = 0
    region_mask[2, 4:] = 0
    return model, (question, regions, region_mask)
