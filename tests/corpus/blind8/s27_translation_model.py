import math
import torch
import torch.nn as nn


class EncDec(nn.Module):
    def __init__(self, src_vocab=36, tgt_vocab=38, d_model=32, nhead=4, ff=64, pad=0):
        super().__init__()
        self.pad = pad
        self.src_emb = nn.Embedding(src_vocab, d_model, padding_idx=pad)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model, padding_idx=pad)
        self.pos = nn.Embedding(24, d_model)
        enc_layer = nn.TransformerEncoderLayer(d_model, nhead, ff, dropout=0.1, batch_first=True)
        dec_layer = nn.TransformerDecoderLayer(d_model, nhead, ff, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, 2, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(dec_layer, 2)
        self.proj = nn.Linear(d_model, tgt_vocab)

    def embed(self, emb, ids):
        return emb(ids) * math.sqrt(emb.embedding_dim) + self.pos(torch.arange(ids.size(1), device=ids.device))

    def forward(self, src, tgt):
        src_pad = src.eq(self.pad)
        tgt_pad = tgt.eq(self.pad)
        causal = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        memory = self.encoder(self.embed(self.src_emb, src), src_key_padding_mask=src_pad)
        out = self.decoder(self.embed(self.tgt_emb, tgt), memory, tgt_mask=causal,
                           tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad, tgt_is_causal=True)
        return self.proj(out)


def build():
    torch.manual_seed(0)
    model = EncDec().eval()
    src = torch.tensor([[4, 15, 22, 9, 30, 3], [7, 12, 3, 0, 0, 0]])
    tgt = torch.tensor([[1, 8, 27, 14, 33], [1, 19, 5, 2, 0]])
    return model, (src, tgt)
