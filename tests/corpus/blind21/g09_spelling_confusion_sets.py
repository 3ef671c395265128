"""Real-word spelling correction (their/there, affect/effect) over lexicon confusion sets.

Every token comes with K candidate words from a confusion-set lookup; slot 0 is always the typed
word itself ("keep"), empty slots are 0. Candidates are scored CLIP-style: a learned logit scale
(capped at 100) times the cosine to the typed word plus the cosine to the token's context vector.
The candidate distribution also mixes the candidate embeddings into an error-detection head.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SpellingCorrector(nn.Module):
    def __init__(self, vocab=500, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True), depth, enable_nested_tensor=False)
        self.word_proj = nn.Linear(dim, dim)
        self.ctx_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(100.0)))
        self.detect = nn.Linear(2 * dim, 2)

    def candidate_probs(self, logits, valid):
        logits = logits.masked_fill(~valid, float("-inf"))
        w = torch.exp(logits)
        return w / w.sum(-1, keepdim=True)

    def forward(self, ids, cand_ids):
        tok_mask = ids != 0
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        h = self.encoder(x, src_key_padding_mask=~tok_mask)                   # (B, T, D)
        cand = self.emb(cand_ids)                                               # (B, T, K, D)
        valid = torch.cat([torch.ones_like(cand_ids[..., :1], dtype=torch.bool), cand_ids[..., 1:] != 0], dim=-1)
        cand_n = F.normalize(self.word_proj(cand), dim=-1)
        typed_n = F.normalize(self.word_proj(self.emb(ids)), dim=-1).unsqueeze(2)
        ctx_n = F.normalize(self.ctx_proj(h), dim=-1).unsqueeze(2)
        scale = self.logit_scale.exp().clamp(max=100.0)
        logits = scale * ((cand_n * typed_n).sum(-1) + (cand_n * ctx_n).sum(-1))
        probs = self.candidate_probs(logits, valid)                             # (B, T, K)
        mixed = (probs.unsqueeze(-1) * cand).sum(2)
        return probs, self.detect(torch.cat([h, mixed], dim=-1))


def build():
    torch.manual_seed(0)
    model = SpellingCorrector().eval()
    ids = torch.randint(1, 500, (2, 10))
    ids[1, 7:] = 0
    cand_ids = torch.randint(1, 500, (2, 10, 4))
    cand_ids[..., 0] = ids                                                      # slot 0: keep the typed word
    cand_ids[..., 3] = 0                                                        # most sets have < 4 members
    return model, (ids, cand_ids)
