import torch
import torch.nn as nn


class CrossAttnProcessor(nn.Module):
    def __init__(self, query_dim=32, cross_dim=24, heads=4):
        super().__init__()
        self.heads = heads
        self.inner_dim = query_dim
        self.head_dim = query_dim // heads
        self.scale = self.inner_dim ** -0.5
        self.to_q = nn.Linear(query_dim, self.inner_dim, bias=False)
        self.to_k = nn.Linear(cross_dim, self.inner_dim, bias=False)
        self.to_v = nn.Linear(cross_dim, self.inner_dim, bias=False)
        self.to_out = nn.Linear(self.inner_dim, query_dim)

    def head_to_batch_dim(self, t):
        B, L, _ = t.shape
        return t.reshape(B, L, self.heads, self.head_dim).permute(0, 2, 1, 3).reshape(B * self.heads, L, self.head_dim)

    def batch_to_head_dim(self, t):
        BH, L, d = t.shape
        B = BH // self.heads
        return t.reshape(B, self.heads, L, d).permute(0, 2, 1, 3).reshape(B, L, self.heads * d)

    def forward(self, hidden, encoder_hidden, encoder_mask):
        q = self.head_to_batch_dim(self.to_q(hidden))
        k = self.head_to_batch_dim(self.to_k(encoder_hidden))
        v = self.head_to_batch_dim(self.to_v(encoder_hidden))
        bias = (1.0 - encoder_mask.float()) * -10000.0
        bias = bias.repeat_interleave(self.heads, dim=0).unsqueeze(1)
        scores = torch.baddbmm(bias, q, k.transpose(-1, -2), beta=1.0, alpha=self.scale)
        probs = scores.softmax(dim=-1)
        return self.to_out(self.batch_to_head_dim(torch.bmm(probs, v)))


class TransformerBlock2D(nn.Module):
    def __init__(self, dim=32, cross_dim=24, heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn1 = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.attn2 = CrossAttnProcessor(dim, cross_dim, heads)
        self.norm3 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, latents, text, text_mask):
        h = self.norm1(latents)
        x = latents + self.attn1(h, h, h, need_weights=False)[0]
        x = x + self.attn2(self.norm2(x), text, text_mask)
        return x + self.ff(self.norm3(x))


def build():
    torch.manual_seed(0)
    model = TransformerBlock2D().eval()
    latents = torch.randn(2, 9, 32)
    text = torch.randn(2, 6, 24)
    text_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0]])
    return model, (latents, text, text_mask)
