import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, n_embd, n_head, block_size, dropout):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.proj = nn.Linear(n_embd, n_embd)
        self.dropout = dropout
        self.register_buffer("causal", torch.tril(torch.ones(block_size, block_size)).bool(), persistent=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.unflatten(-1, (self.n_head, -1)).transpose(1, 2)
        k = k.unflatten(-1, (self.n_head, -1)).transpose(1, 2)
        v = v.unflatten(-1, (self.n_head, -1)).transpose(1, 2)
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=self.causal[:T, :T], dropout_p=self.dropout if self.training else 0.0
        )
        return self.proj(y.transpose(1, 2).flatten(2))


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size, dropout=0.2):
        super().__init__()
        self.sa = Head(n_embd, n_head, block_size, dropout)
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd), nn.Dropout(dropout))
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        return x + self.ffwd(self.ln2(x))


class CharDecoder(nn.Module):
    def __init__(self, vocab_size=65, n_embd=32, n_head=4, n_layer=2, block_size=16):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T, device=idx.device))
        x = self.blocks(tok_emb + pos_emb)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = CharDecoder().eval()
    idx = torch.randint(0, 65, (2, 13))
    return model, (idx,)
