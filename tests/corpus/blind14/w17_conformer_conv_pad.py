"""Streaming-free Conformer encoder for CTC: self-attention with a length mask followed by the
convolution module (pointwise conv, GLU, depthwise conv, BatchNorm, Swish, pointwise conv)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvolutionModule(nn.Module):
    def __init__(self, channels, kernel_size=5):
        super().__init__()
        self.layer_norm = nn.LayerNorm(channels)
        self.pointwise1 = nn.Conv1d(channels, 2 * channels, kernel_size=1)
        self.depthwise = nn.Conv1d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)
        self.batch_norm = nn.BatchNorm1d(channels)
        self.pointwise2 = nn.Conv1d(channels, channels, kernel_size=1)

    def forward(self, x, valid):
        h = self.layer_norm(x).transpose(1, 2)
        h = F.glu(self.pointwise1(h), dim=1)
        h = self.depthwise(h)
        h = F.silu(self.batch_norm(h))
        return self.pointwise2(h).transpose(1, 2)


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, valid):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm(x)).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=valid[:, None, None, :])
        return self.out(y.transpose(1, 2).reshape(B, T, D))


class ConformerEncoder(nn.Module):
    def __init__(self, feat_dim=16, d=32, heads=4, layers=2, vocab=27):
        super().__init__()
        self.proj = nn.Linear(feat_dim, d)
        self.attn = nn.ModuleList(SelfAttention(d, heads) for _ in range(layers))
        self.conv = nn.ModuleList(ConvolutionModule(d) for _ in range(layers))
        self.final_norm = nn.LayerNorm(d)
        self.ctc = nn.Linear(d, vocab)

    def forward(self, feats, lengths):
        valid = torch.arange(feats.size(1), device=feats.device)[None, :] < lengths[:, None]
        x = self.proj(feats)
        for attn, conv in zip(self.attn, self.conv):
            x = x + attn(x, valid)
            x = x + conv(x, valid)
        return self.ctc(self.final_norm(x)).log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = ConformerEncoder().eval()
    with torch.no_grad():
        for m in model.conv:
            m.batch_norm.running_var.uniform_(0.5, 2.0)
    lengths = torch.tensor([20, 13, 8])
    feats = torch.randn(3, 20, 16)
    return model, (feats, lengths)
