"""Fusion-in-Decoder reader.

Each question comes with P retrieved passages (question + passage, padded to L tokens).
The encoder reads every passage independently; the decoder then cross-attends over the
concatenation of all P encoded passages of its question, skipping padded tokens.
"""
import torch
import torch.nn as nn


class FiDReader(nn.Module):
    def __init__(self, vocab=70, d=32, heads=4, max_len=16):
        super().__init__()
        self.d = d
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(max_len, d)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, heads, 64, dropout=0.0, batch_first=True), num_layers=2,
            enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d, heads, 64, dropout=0.0, batch_first=True), num_layers=2)
        self.lm_head = nn.Linear(d, vocab)

    def embed(self, ids):
        return self.emb(ids) + self.pos(torch.arange(ids.size(-1), device=ids.device))

    def forward(self, passage_ids, passage_mask, answer_ids):
        B, P, L = passage_ids.shape
        # encode the k-th passage of every question together
        flat_ids = passage_ids.transpose(0, 1).reshape(P * B, L)
        flat_pad = passage_mask.transpose(0, 1).reshape(P * B, L) == 0
        enc = self.encoder(self.embed(flat_ids), src_key_padding_mask=flat_pad)
        memory = enc.reshape(B, P * L, self.d)
        memory_pad = passage_mask.reshape(B, P * L) == 0
        T = answer_ids.size(1)
        causal = nn.Transformer.generate_square_subsequent_mask(T)
        y = self.decoder(self.embed(answer_ids), memory, tgt_mask=causal, tgt_is_causal=True,
                         memory_key_padding_mask=memory_pad)
        return self.lm_head(y)


def build():
    torch.manual_seed(0)
    model = FiDReader().eval()
    B, P, L = 2, 3, 6
    passage_ids = torch.randint(3, 70, (B, P, L))
    passage_mask = torch.ones(B, P, L, dtype=torch.long)
    passage_mask[0, 1, 4:] = 0
    passage_mask[1, 0, 3:] = 0
    passage_mask[1, 2, 5:] = 0
    passage_ids = passage_ids.masked_fill(passage_mask == 0, 0)
    answer_ids = torch.randint(3, 70, (B, 5))
    return model, (passage_ids, passage_mask, answer_ids)
