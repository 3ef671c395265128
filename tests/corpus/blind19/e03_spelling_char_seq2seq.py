"""Character-level spelling correction: an encoder-decoder Transformer reads the misspelled
word (right-padded with PAD=0) and decodes the corrected spelling with teacher forcing."""
import torch
import torch.nn as nn

PAD = 0


class SpellCorrector(nn.Module):
    def __init__(self, n_chars=60, d=32, h=4, layers=2, max_len=32):
        super().__init__()
        self.src_emb = nn.Embedding(n_chars, d, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(n_chars, d, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, d)
        self.transformer = nn.Transformer(d, h, layers, layers, 64, dropout=0.1, batch_first=True)
        self.generator = nn.Linear(d, n_chars)

    def embed(self, emb, ids):
        pos = torch.arange(ids.size(1), device=ids.device)
        return emb(ids) + self.pos(pos)[None]

    def forward(self, src, tgt):
        src_pad = src.eq(PAD)
        tgt_pad = tgt.eq(PAD)
        causal = nn.Transformer.generate_square_subsequent_mask(tgt.size(1), device=tgt.device)
        h = self.transformer(
            self.embed(self.src_emb, src), self.embed(self.tgt_emb, tgt),
            tgt_mask=causal, src_key_padding_mask=src_pad,
            tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad,
            tgt_is_causal=True,
        )
        return self.generator(h)


def build():
    torch.manual_seed(0)
    model = SpellCorrector().eval()
    src = torch.randint(1, 60, (3, 12))
    src[1, 8:] = PAD
    src[2, 5:] = PAD
    tgt = torch.randint(1, 60, (3, 10))
    return model, (src, tgt)
