import torch
import torch.nn as nn


class TemperatureAttention(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.to_q = nn.Linear(d_model, d_model)
        self.to_k = nn.Linear(d_model, d_model)
        self.to_v = nn.Linear(d_model, d_model)
        self.to_out = nn.Linear(d_model, d_model)
        self.temperature = nn.Parameter(torch.tensor(float(self.d_head)).sqrt())

    def forward(self, x, key_padding_mask):
        B, L, D = x.shape
        q = self.to_q(x).reshape(B, L, self.n_heads, self.d_head).permute(0, 2, 1, 3)
        k = self.to_k(x).reshape(B, L, self.n_heads, self.d_head).permute(0, 2, 3, 1)
        v = self.to_v(x).reshape(B, L, self.n_heads, self.d_head).permute(0, 2, 1, 3)
        logits = torch.matmul(q, k) / self.temperature
        neg = torch.tensor(float("-inf"), dtype=logits.dtype)
        logits = torch.where(key_padding_mask.view(B, 1, 1, L), neg, logits)
        attn = logits.softmax(dim=-1)
        out = torch.matmul(attn, v).permute(0, 2, 1, 3).reshape(B, L, D)
        return self.to_out(out)


class Net(nn.Module):
    def __init__(self, vocab=40, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(16, d) * 0.1)
        self.att1 = TemperatureAttention(d)
        self.att2 = TemperatureAttention(d)
        self.ln1 = nn.LayerNorm(d)
        self.ln2 = nn.LayerNorm(d)
        self.ln3 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.Tanh(), nn.Linear(2 * d, d))

    def forward(self, tokens, key_padding_mask):
        x = self.emb(tokens) + self.pos[: tokens.size(1)]
        x = self.ln1(x + self.att1(x, key_padding_mask))
        x = self.ln2(x + self.ff(x))
        return self.ln3(x + self.att2(x, key_padding_mask))


def build():
    torch.manual_seed(0)
    model = Net().eval()
    tokens = torch.tensor([[5, 6, 7, 8, 9, 10], [11, 12, 13, 3, 3, 3]])
    key_padding_mask = torch.tensor([[False] * 6, [False, False, False, True, True, True]])
    return model, (tokens, key_padding_mask)
