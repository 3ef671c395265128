"""ELECTRA (Clark et al., 2020): a small masked-LM generator fills the [MASK] slots and a
discriminator predicts, for every token, whether it was replaced. Both share the token and
position embeddings; the generator's output layer is tied to the token embeddings.
"""
import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.hidden_size = hidden_size
        self.head_size = hidden_size // num_heads
        self.query = nn.Linear(hidden_size, hidden_size)
        self.key = nn.Linear(hidden_size, hidden_size)
        self.value = nn.Linear(hidden_size, hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)

    def split(self, x):
        return x.view(x.size(0), x.size(1), self.num_heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, x, extended_mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hidden_size)
        probs = nn.functional.softmax(scores + extended_mask, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(x.shape)
        return self.dense(ctx)


class Layer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.ln1, self.ln2 = nn.LayerNorm(hidden, eps=1e-12), nn.LayerNorm(hidden, eps=1e-12)
        self.ffn = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))

    def forward(self, x, extended_mask):
        x = self.ln1(x + self.attention(x, extended_mask))
        return self.ln2(x + self.ffn(x))


class Electra(nn.Module):
    def __init__(self, vocab=100, hidden=32, max_len=64, gen_heads=2, disc_heads=4):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_len, hidden)
        self.emb_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.generator = nn.ModuleList([Layer(hidden, gen_heads)])
        self.gen_bias = nn.Parameter(torch.zeros(vocab))
        self.discriminator = nn.ModuleList(Layer(hidden, disc_heads) for _ in range(2))
        self.disc_head = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def embed(self, ids):
        pos = torch.arange(ids.size(1), device=ids.device)
        return self.emb_norm(self.word_embeddings(ids) + self.position_embeddings(pos))

    def forward(self, input_ids, attention_mask, mask_positions):
        extended = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        h = self.embed(input_ids)
        for layer in self.generator:
            h = layer(h, extended)
        gen_logits = h @ self.word_embeddings.weight.t() + self.gen_bias
        sampled = gen_logits.argmax(dim=-1)
        corrupted = torch.where(mask_positions, sampled, input_ids)
        d = self.embed(corrupted)
        for layer in self.discriminator:
            d = layer(d, extended)
        return self.disc_head(d).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = Electra().eval()
    lengths = torch.tensor([18, 12, 7])
    attention_mask = (torch.arange(18)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(5, 100, (3, 18)) * attention_mask
    mask_positions = (torch.rand(3, 18) < 0.15) & attention_mask.bool()
    input_ids = input_ids.masked_fill(mask_positions, 4)   # [MASK]
    return model, (input_ids, attention_mask, mask_positions)
