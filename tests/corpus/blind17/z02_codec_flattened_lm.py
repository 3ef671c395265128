"""Codebook-flattened token LM (the "flattening" pattern of multi-stream audio LMs).

The K codebooks of every frame are laid out one after the other, so a clip of T frames is a
sequence of T*K tokens. Each token gets a codebook embedding, a frame embedding, and the
model predicts the token that follows it. The head used at position i is the one of the
codebook that comes next, (i + 1) mod K.
"""
import torch
import torch.nn as nn


class FlattenedCodebookLM(nn.Module):
    def __init__(self, n_q=3, card=32, d_model=48, nhead=4, num_layers=2, max_frames=32):
        super().__init__()
        self.n_q, self.card = n_q, card
        self.tok = nn.Embedding(n_q * card, d_model)  # disjoint id ranges per codebook
        self.codebook = nn.Embedding(n_q, d_model)
        self.frame = nn.Embedding(max_frames + 1, d_model)
        self.layers = nn.ModuleList(
            [nn.MultiheadAttention(d_model, nhead, batch_first=True) for _ in range(num_layers)]
        )
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(num_layers)])
        self.ffs = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))
             for _ in range(num_layers)]
        )
        self.out = nn.Linear(d_model, n_q * card)

    def forward(self, codes):
        # codes: (B, T, K) with values in [0, card)
        B, T, K = codes.shape
        offsets = torch.arange(K, device=codes.device) * self.card
        flat = (codes + offsets).reshape(B, T * K)
        cb = torch.arange(K, device=codes.device).repeat(T)
        fr = torch.arange(T, device=codes.device).repeat_interleave(K)
        x = self.tok(flat) + self.codebook(cb) + self.frame(fr)
        L = T * K
        future = torch.full((L, L), float("-inf"), device=codes.device).triu(1)
        for attn, norm, ff in zip(self.layers, self.norms, self.ffs):
            h = norm(x)
            x = x + attn(h, h, h, attn_mask=future, need_weights=False)[0]
            x = x + ff(x)
        logits = self.out(x).view(B, L, K, self.card)
        nxt = (torch.arange(L, device=codes.device) + 1) % K
        # keep only the head of the codebook predicted at each position
        logits = logits.gather(2, nxt.view(1, L, 1, 1).expand(B, L, 1, self.card)).squeeze(2)
        return logits.view(B, T, K, self.card)


def build():
    torch.manual_seed(0)
    model = FlattenedCodebookLM().eval()
    codes = torch.randint(0, 32, (3, 8, 3))
    return model, (codes,)
