"""A GRU encoder-decoder with Luong "general" attention, `score = h_t^T W_a h_s`, unscaled by design, over a right-padded source: correct.

Luong et al. (2015) score each decoder state against each encoder state with a bilinear
product (`dot` is the same with W_a the identity) and no 1/sqrt(d) factor: the states are
GRU outputs bounded by tanh, not projections of unit-variance features, and the paper's model
is trained that way. Padded source positions are hidden before the softmax over the
source, and the decoder starts from each source's state at its last real token, so no
padding reaches the outputs.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class LuongSeq2Seq(nn.Module):
    def __init__(self, src_vocab: int = 24, tgt_vocab: int = 20, d_model: int = 16):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.tgt_embed = nn.Embedding(tgt_vocab, d_model)
        self.encoder = nn.GRU(d_model, d_model, batch_first=True)
        self.decoder = nn.GRU(d_model, d_model, batch_first=True)
        self.W_a = nn.Linear(d_model, d_model, bias=False)
        self.W_c = nn.Linear(2 * d_model, d_model, bias=False)
        self.out = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, src_mask, tgt):
        enc, _ = self.encoder(self.src_embed(src))                            # (B, S, d)
        last = src_mask.sum(dim=1) - 1
        h0 = enc[torch.arange(src.shape[0]), last][None]                      # (1, B, d)
        dec, _ = self.decoder(self.tgt_embed(tgt), h0)                        # (B, T, d)
        scores = torch.bmm(dec, self.W_a(enc).transpose(1, 2))                # (B, T, S), general score
        scores = scores.masked_fill(src_mask[:, None, :] == 0, float("-inf"))
        align = F.softmax(scores, dim=-1)
        context = torch.bmm(align, enc)                                       # (B, T, d)
        attentional = torch.tanh(self.W_c(torch.cat([context, dec], dim=-1)))
        return F.log_softmax(self.out(attentional), dim=-1)


def build():
    torch.manual_seed(0)
    src_lengths, S = [7, 5, 3], 7
    src = torch.zeros(3, S, dtype=torch.long)
    src_mask = torch.zeros(3, S, dtype=torch.long)
    for row, n in enumerate(src_lengths):
        src[row, :n] = torch.randint(1, 24, (n,))
        src_mask[row, :n] = 1
    return LuongSeq2Seq().eval(), (src, src_mask, torch.randint(1, 20, (3, 5)))
