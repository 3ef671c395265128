"""Radiology report generation from chest X-ray patches.

A small ViT encodes the image; the report decoder cross-attends to the patch tokens through a
narrow query/key space (8 dims per head) with full-width values (16 per head), which keeps the
cross-attention cheap when reports are decoded with large beams.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NarrowKeyCrossAttention(nn.Module):
    def __init__(self, dim, heads, qk_head_dim=8, dropout=0.1):
        super().__init__()
        self.heads, self.qk_head_dim, self.v_head_dim = heads, qk_head_dim, dim // heads
        self.q = nn.Linear(dim, heads * qk_head_dim, bias=False)
        self.k = nn.Linear(dim, heads * qk_head_dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.o = nn.Linear(dim, dim)
        self.scale = self.qk_head_dim ** -0.5
        self.dropout = dropout

    def forward(self, x, memory):
        B, T, _ = x.shape
        S = memory.size(1)
        q = self.q(x).view(B, T, self.heads, self.qk_head_dim).transpose(1, 2)
        k = self.k(memory).view(B, S, self.heads, self.qk_head_dim).transpose(1, 2)
        v = self.v(memory).view(B, S, self.heads, self.v_head_dim).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
        attn = F.dropout(attn, self.dropout, self.training)
        return self.o((attn @ v).transpose(1, 2).reshape(B, T, -1))


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.cross = NarrowKeyCrossAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, memory):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=0.1 if self.training else 0.0)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        x = x + self.cross(self.ln2(x), memory)
        return x + self.ff(self.ln3(x))


class ReportGenerator(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=2, patch=8, img=32, max_len=64):
        super().__init__()
        self.patchify = nn.Conv2d(1, dim, patch, stride=patch)
        self.img_pos = nn.Parameter(torch.randn(1, (img // patch) ** 2, dim) * 0.02)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True, norm_first=True), 2,
            enable_nested_tensor=False)
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, heads) for _ in range(2)])
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, image, report_ids):
        memory = self.encoder(self.patchify(image).flatten(2).transpose(1, 2) + self.img_pos)
        T = report_ids.size(1)
        x = self.tok(report_ids) + self.pos(torch.arange(T, device=report_ids.device))
        for layer in self.layers:
            x = layer(x, memory)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = ReportGenerator().eval()
    image = torch.randn(2, 1, 32, 32)
    report_ids = torch.randint(1, 100, (2, 15))
    report_ids[1, 11:] = 0
    return model, (image, report_ids)
