"""Recurrent Memory Transformer: the sequence is processed in segments as
[read memory | segment tokens | write memory] with one causal mask; the write-memory outputs
become the read memory of the next segment."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Layer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        B, L, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, L, 3, self.heads, D // self.heads).unbind(2)
        y = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + self.out(y.transpose(1, 2).reshape(B, L, D))
        return x + self.mlp(self.norm2(x))


class RMT(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, layers=2, n_mem=2, seg_len=6):
        super().__init__()
        self.n_mem, self.seg_len = n_mem, seg_len
        self.embed = nn.Embedding(vocab, d)
        self.seg_pos = nn.Parameter(torch.randn(seg_len, d) * 0.02)
        self.mem_init = nn.Parameter(torch.randn(n_mem, d) * 0.02)
        self.write_tokens = nn.Parameter(torch.randn(n_mem, d) * 0.02)
        self.layers = nn.ModuleList(Layer(d, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        B = input_ids.size(0)
        M = self.n_mem
        memory = self.mem_init.expand(B, -1, -1)
        logits = []
        for seg in input_ids.split(self.seg_len, dim=1):
            S = seg.size(1)
            x = torch.cat([memory, self.embed(seg) + self.seg_pos[:S], self.write_tokens.expand(B, -1, -1)], dim=1)
            for layer in self.layers:
                x = layer(x)
            logits.append(self.lm_head(self.norm(x[:, M:M + S])))
            memory = x[:, M + S:]
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = RMT().eval()
    input_ids = torch.randint(0, 64, (3, 18))
    return model, (input_ids,)
