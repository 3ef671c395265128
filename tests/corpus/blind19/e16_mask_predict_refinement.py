"""Mask-Predict (Ghazvininejad et al., 2019): a conditional masked LM decoder that iteratively
re-predicts the least confident target tokens. The decoder is bidirectional by design: every
target position attends to every other real target position, masked tokens included."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, MASK = 0, 3


class CMLM(nn.Module):
    def __init__(self, vocab=90, d=32, h=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=PAD)
        self.pos = nn.Embedding(40, d)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, h, 64, dropout=0.1, batch_first=True), layers, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d, h, 64, dropout=0.1, batch_first=True), layers)
        self.proj = nn.Linear(d, vocab)

    def encode(self, src):
        pad = src.eq(PAD)
        return self.encoder(self.embed(src) + self.pos.weight[: src.size(1)], src_key_padding_mask=pad), pad

    def decode(self, tgt, memory, src_pad):
        tgt_pad = tgt.eq(PAD)
        x = self.embed(tgt) + self.pos.weight[: tgt.size(1)]
        h = self.decoder(x, memory, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.proj(h)

    def forward(self, src, tgt, iterations: int = 2):
        memory, src_pad = self.encode(src)
        tgt_pad = tgt.eq(PAD)
        lengths = (~tgt_pad).sum(1)
        logits = self.decode(tgt, memory, src_pad)
        for it in range(1, iterations):
            probs, tokens = logits.softmax(-1).max(-1)
            tokens = tokens.masked_fill(tgt_pad, PAD)
            n_mask = (lengths.float() * (1.0 - it / iterations)).long()
            probs = probs.masked_fill(tgt_pad, 2.0)
            order = probs.argsort(-1)
            rank = order.argsort(-1)
            remask = rank < n_mask[:, None]
            tgt = tokens.masked_fill(remask, MASK)
            logits = self.decode(tgt, memory, src_pad)
        return logits.masked_fill(tgt_pad[..., None], 0.0)


def build():
    torch.manual_seed(0)
    model = CMLM().eval()
    src = torch.randint(4, 90, (3, 12))
    src[1, 9:] = PAD
    tgt = torch.full((3, 10), MASK)
    tgt[0, 7:] = PAD
    tgt[2, 5:] = PAD
    return model, (src, tgt)
