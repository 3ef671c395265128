import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class ChunkedCrossAttention(nn.Module):
    def __init__(self, dim=32, heads=4, chunk_size=4):
        super().__init__()
        self.heads, self.chunk_size = heads, chunk_size
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, retrieved, retrieved_mask):
        # x: [b, n, d]; retrieved: [b, c, k, r, d]; retrieved_mask: [b, c, k, r] (True = real token)
        b, n, _ = x.shape
        c = n // self.chunk_size
        xc = rearrange(self.norm(x), "b (c m) d -> (b c) m d", c=c)
        mem = rearrange(retrieved, "b c k r d -> (b c) (k r) d")
        mask = rearrange(retrieved_mask, "b c k r -> (b c) 1 1 (k r)")
        q = rearrange(self.to_q(xc), "bc m (h d) -> bc h m d", h=self.heads)
        k, v = (rearrange(t, "bc s (h d) -> bc h s d", h=self.heads) for t in self.to_kv(mem).chunk(2, -1))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out = rearrange(out, "(b c) h m d -> b (c m) (h d)", b=b)
        return x + self.to_out(out)


class RetroReader(nn.Module):
    def __init__(self, vocab=50, dim=32, chunk_size=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.nbr_encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, 4, 64, 0.0, batch_first=True), 1, enable_nested_tensor=False)
        self.self_block = nn.TransformerEncoderLayer(dim, 4, 64, 0.1, batch_first=True)
        self.cca = ChunkedCrossAttention(dim, chunk_size=chunk_size)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens, neighbours, neighbour_mask):
        b, c, k, r = neighbours.shape
        nb = self.emb(neighbours).flatten(0, 2)
        nb = self.nbr_encoder(nb, src_key_padding_mask=~neighbour_mask.flatten(0, 2))
        nb = nb.view(b, c, k, r, -1)
        h = self.self_block(self.emb(tokens))
        h = self.cca(h, nb, neighbour_mask)
        return self.out(h)


def build():
    torch.manual_seed(0)
    model = RetroReader().eval()
    b, n, c, k, r = 2, 8, 2, 2, 5
    tokens = torch.randint(1, 50, (b, n))
    neighbours = torch.randint(1, 50, (b, c, k, r))
    lens = torch.randint(2, r + 1, (b, c, k))
    lens[0, 0, 0] = r
    neighbour_mask = torch.arange(r) < lens[..., None]
    neighbours = neighbours.masked_fill(~neighbour_mask, 0)
    return model, (tokens, neighbours, neighbour_mask)
