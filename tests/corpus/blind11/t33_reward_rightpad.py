"""Pairwise reward model (Bradley-Terry) on right-padded chosen/rejected batches, scored at the last real token."""
import torch
import torch.nn as nn


class RewardModel(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, layers=2, max_len=24):
        super().__init__()
        self.embed, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.transformer = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.v_head = nn.Linear(dim, 1)

    def score(self, input_ids, attention_mask):
        T = input_ids.size(1)
        x = self.embed(input_ids) + self.pos(torch.arange(T))
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)  # True = may not attend
        h = self.transformer(x, mask=causal, src_key_padding_mask=attention_mask == 0, is_causal=True)
        last = attention_mask.sum(dim=1) - 1
        return self.v_head(h[torch.arange(h.size(0)), last]).squeeze(-1)

    def forward(self, chosen_ids, chosen_mask, rejected_ids, rejected_mask):
        r_chosen = self.score(chosen_ids, chosen_mask)
        r_rejected = self.score(rejected_ids, rejected_mask)
        return r_chosen - r_rejected


def build():
    torch.manual_seed(0)
    cm = (torch.arange(12)[None] < torch.tensor([12, 9, 6])[:, None]).long()
    rm = (torch.arange(12)[None] < torch.tensor([8, 12, 5])[:, None]).long()
    chosen = torch.randint(1, 60, (3, 12)) * cm
    rejected = torch.randint(1, 60, (3, 12)) * rm
    return RewardModel().eval(), (chosen, cm, rejected, rm)
