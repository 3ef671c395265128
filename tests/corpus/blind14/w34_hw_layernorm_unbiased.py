"""ELECTRA-style generator (small masked-LM encoder) written from scratch, including its LayerNorm."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm(nn.Module):
    def __init__(self, hidden, eps=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True)
        return self.weight * (x - mean) / torch.sqrt(var + self.eps) + self.bias


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.dh = heads, hidden // heads
        self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
        self.dense = nn.Linear(hidden, hidden)
        self.norm = LayerNorm(hidden)

    def forward(self, x, ext_mask):
        B, T, H = x.shape
        shape = lambda t: t.view(B, T, self.heads, self.dh).permute(0, 2, 1, 3)
        q, k, v = shape(self.query(x)), shape(self.key(x)), shape(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / self.dh ** 0.5 + ext_mask
        ctx = torch.matmul(F.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).reshape(B, T, H)
        return self.norm(x + self.dense(ctx))


class Layer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.intermediate = nn.Linear(hidden, 4 * hidden)
        self.output = nn.Linear(4 * hidden, hidden)
        self.norm = LayerNorm(hidden)

    def forward(self, x, ext_mask):
        x = self.attention(x, ext_mask)
        return self.norm(x + self.output(F.gelu(self.intermediate(x))))


class Generator(nn.Module):
    def __init__(self, vocab=120, hidden=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_len, hidden)
        self.emb_norm = LayerNorm(hidden)
        self.layers = nn.ModuleList(Layer(hidden, heads) for _ in range(layers))
        self.mlm_dense = nn.Linear(hidden, hidden)
        self.mlm_norm = LayerNorm(hidden)
        self.mlm_bias = nn.Parameter(torch.zeros(vocab))

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.emb_norm(self.word_embeddings(input_ids) + self.position_embeddings(pos))
        ext_mask = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        for layer in self.layers:
            x = layer(x, ext_mask)
        h = self.mlm_norm(F.gelu(self.mlm_dense(x)))
        return h @ self.word_embeddings.weight.T + self.mlm_bias


def build():
    torch.manual_seed(0)
    model = Generator().eval()
    attention_mask = (torch.arange(12)[None] < torch.tensor([12, 8, 10])[:, None]).long()
    input_ids = torch.randint(4, 120, (3, 12)) * attention_mask
    input_ids[0, 3] = input_ids[1, 5] = 3  # [MASK]
    return model, (input_ids, attention_mask)
