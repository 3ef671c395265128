"""Beam-search decoding for an attentional GRU captioner (Show, Attend and Tell style).

Image regions (B, R, C) are encoded once and repeated for each of the K beams (row b*K + k).
The GRU state is reordered after every step so that each surviving beam continues from the
state of the beam it extends.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    def __init__(self, enc_dim, dec_dim, att_dim):
        super().__init__()
        self.enc = nn.Linear(enc_dim, att_dim)
        self.dec = nn.Linear(dec_dim, att_dim)
        self.full = nn.Linear(att_dim, 1)

    def forward(self, regions, h):
        e = self.full(torch.tanh(self.enc(regions) + self.dec(h)[:, None])).squeeze(-1)  # (N, R)
        alpha = e.softmax(dim=-1)
        return (alpha[..., None] * regions).sum(1)


class Captioner(nn.Module):
    def __init__(self, enc_dim=24, emb=16, hidden=32, vocab=25, bos=1):
        super().__init__()
        self.bos = bos
        self.init_h = nn.Linear(enc_dim, hidden)
        self.embed = nn.Embedding(vocab, emb)
        self.attend = AdditiveAttention(enc_dim, hidden, 16)
        self.gru = nn.GRUCell(emb + enc_dim, hidden)
        self.out = nn.Linear(hidden, vocab)

    def step(self, token, h, regions):
        ctx = self.attend(regions, h)
        h = self.gru(torch.cat([self.embed(token), ctx], dim=-1), h)
        return F.log_softmax(self.out(h), dim=-1), h


class BeamCaptioner(nn.Module):
    def __init__(self, num_beams=3, max_len=5):
        super().__init__()
        self.model = Captioner()
        self.K, self.max_len = num_beams, max_len

    def forward(self, regions):
        B, K = regions.size(0), self.K
        regions = regions.repeat_interleave(K, dim=0)                  # (B*K, R, C)
        h = torch.tanh(self.model.init_h(regions.mean(1)))
        token = torch.full((B * K,), self.model.bos, dtype=torch.long, device=regions.device)
        scores = torch.zeros(B, K, device=regions.device)
        scores[:, 1:] = float("-inf")                                  # start from a single beam
        for _ in range(self.max_len):
            logp, h = self.model.step(token, h, regions)
            V = logp.size(-1)
            cand = (scores[..., None] + logp.view(B, K, V)).view(B, K * V)
            scores, idx = cand.topk(K, dim=-1)
            beam_idx = (idx // V).view(-1)
            h = h.index_select(0, beam_idx)
            token = (idx % V).view(-1)
        return scores


def build():
    torch.manual_seed(25)
    model = BeamCaptioner().eval()
    regions = torch.randn(3, 6, 24)
    return model, (regions,)
