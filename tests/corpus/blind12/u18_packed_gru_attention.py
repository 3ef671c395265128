"""GRU encoder-decoder with Luong ("general") attention for a small NMT task.

The source batch is right padded and described by a (B,) tensor of lengths; the encoder runs
on a packed sequence so the backward direction starts at each sentence's own last token. The
decoder is teacher forced over the target prefix and attends to the encoder states of real
source tokens only.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, hidden)

    def forward(self, src, lengths):
        packed = pack_padded_sequence(self.emb(src), lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, h_n = self.gru(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        h0 = torch.tanh(self.bridge(torch.cat([h_n[0], h_n[1]], dim=-1)))
        return out, h0


class LuongAttention(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W = nn.Linear(2 * hidden, hidden, bias=False)

    def forward(self, h_t, enc_out, src_mask):
        # h_t: (B, H), enc_out: (B, S, 2H) -> context (B, 2H)
        score = torch.bmm(self.W(enc_out), h_t.unsqueeze(2)).squeeze(2)   # (B, S)
        score = score.masked_fill(~src_mask, float("-inf"))
        align = F.softmax(score, dim=1)
        return torch.bmm(align.unsqueeze(1), enc_out).squeeze(1)


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.cell = nn.GRUCell(emb + hidden, hidden)
        self.attn = LuongAttention(hidden)
        self.concat = nn.Linear(3 * hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tgt, enc_out, h, src_mask):
        B, T = tgt.shape
        feed = torch.zeros(B, h.size(1), device=tgt.device)
        logits = []
        for t in range(T):
            h = self.cell(torch.cat([self.emb(tgt[:, t]), feed], dim=-1), h)
            ctx = self.attn(h, enc_out, src_mask)
            feed = torch.tanh(self.concat(torch.cat([h, ctx], dim=-1)))
            logits.append(self.out(feed))
        return torch.stack(logits, dim=1)


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab=50, tgt_vocab=40, emb=16, hidden=16):
        super().__init__()
        self.encoder = Encoder(src_vocab, emb, hidden)
        self.decoder = Decoder(tgt_vocab, emb, hidden)

    def forward(self, src, src_lengths, tgt):
        src_mask = torch.arange(src.size(1), device=src.device)[None] < src_lengths[:, None]
        enc_out, h0 = self.encoder(src, src_lengths)
        return self.decoder(tgt, enc_out, h0, src_mask)


def build():
    torch.manual_seed(18)
    model = Seq2Seq().eval()
    src_lengths = torch.tensor([9, 5, 2])
    src = torch.randint(1, 50, (3, 9)) * (torch.arange(9)[None] < src_lengths[:, None])
    tgt = torch.randint(1, 40, (3, 6))
    return model, (src, src_lengths, tgt)
