"""Reward model for DPO/RLHF: a causal LM trunk with a scalar head read at each sequence's last token.
Batches come left padded from the generation collator."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.ln_1, self.ln_2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.c_attn, self.c_proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x, bias):
        B, T, D = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        x = x + self.c_proj(y.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln_2(x))


class RewardModel(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, layers=2, max_pos=24):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(max_pos, dim)
        self.h = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.score = nn.Linear(dim, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        x = self.wte(input_ids) + self.wpe(position_ids)
        keep = torch.ones(T, T, dtype=torch.bool).tril()[None, None] & attention_mask.bool()[:, None, None, :]
        bias = torch.zeros(B, 1, T, T).masked_fill(~keep, torch.finfo(torch.float32).min)
        for block in self.h:
            x = block(x, bias)
        rewards = self.score(self.ln_f(x)).squeeze(-1)
        sequence_lengths = attention_mask.sum(dim=-1) - 1
        return rewards[torch.arange(B), sequence_lengths]


def build():
    torch.manual_seed(0)
    T, lens = 12, [12, 8, 4]
    input_ids = torch.zeros(3, T, dtype=torch.long)
    attention_mask = torch.zeros(3, T, dtype=torch.long)
    for i, n in enumerate(lens):
        input_ids[i, T - n :] = torch.randint(1, 60, (n,))
        attention_mask[i, T - n :] = 1
    return RewardModel().eval(), (input_ids, attention_mask)
