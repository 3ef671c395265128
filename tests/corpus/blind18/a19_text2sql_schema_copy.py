"""Text-to-SQL decoder with a copy mechanism over schema items (columns and tables).

At each step the decoder either generates a SQL keyword from the vocabulary or copies a schema
item, pointer-network style. The output is one distribution over [keywords ; schema items];
schemas have different sizes and `schema_mask` is 1 on real items.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SchemaCopyDecoder(nn.Module):
    def __init__(self, n_keywords=40, d=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.tok_emb = nn.Embedding(n_keywords, d)
        self.pos_emb = nn.Embedding(max_len, d)
        layer = nn.TransformerDecoderLayer(d, heads, 2 * d, dropout=0.1, batch_first=True, norm_first=True)
        self.decoder = nn.TransformerDecoder(layer, layers)
        self.schema_enc = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        self.gen = nn.Linear(d, n_keywords)
        self.copy_q = nn.Linear(d, d)
        self.switch = nn.Linear(2 * d, 1)

    def forward(self, sql_prefix, question_states, schema_feats, question_mask, schema_mask):
        T = sql_prefix.size(1)
        x = self.tok_emb(sql_prefix) + self.pos_emb(torch.arange(T, device=sql_prefix.device))
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=x.device)
        h = self.decoder(x, question_states, tgt_mask=causal, tgt_is_causal=True,
                         memory_key_padding_mask=question_mask == 0)
        items = self.schema_enc(schema_feats)  # (B, N, d)
        copy_scores = torch.einsum("btd,bnd->btn", self.copy_q(h), items) / math.sqrt(items.size(-1))
        copy_scores = copy_scores.masked_fill(schema_mask[:, None, :] == 0, float("-inf"))
        p_copy = copy_scores.softmax(-1)
        p_gen = self.gen(h).softmax(-1)
        ctx = torch.einsum("btn,bnd->btd", p_copy, items)
        g = torch.sigmoid(self.switch(torch.cat([h, ctx], -1)))
        return torch.cat([g * p_gen, (1 - g) * p_copy], dim=-1)


def build():
    torch.manual_seed(0)
    model = SchemaCopyDecoder().eval()
    B = 3
    sql_prefix = torch.randint(0, 40, (B, 12))
    question_states = torch.randn(B, 10, 32)
    question_mask = torch.ones(B, 10, dtype=torch.long)
    question_mask[0, 6:] = 0
    schema_feats = torch.randn(B, 9, 32)
    schema_mask = torch.ones(B, 9, dtype=torch.long)
    schema_mask[1, 5:] = 0
    schema_mask[2, 7:] = 0
    return model, (sql_prefix, question_states, schema_feats, question_mask, schema_mask)
