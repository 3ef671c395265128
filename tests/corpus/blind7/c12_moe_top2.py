import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLUExpert(nn.Module):
    def __init__(self, d, d_ff):
        super().__init__()
        self.w1 = nn.Linear(d, d_ff, bias=False)
        self.w3 = nn.Linear(d, d_ff, bias=False)
        self.w2 = nn.Linear(d_ff, d, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoeBlock(nn.Module):
    def __init__(self, d=32, d_ff=48, n_experts=6, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.n_experts = n_experts
        self.gate = nn.Linear(d, n_experts, bias=False)
        self.experts = nn.ModuleList([SwiGLUExpert(d, d_ff) for _ in range(n_experts)])

    def forward(self, hidden):
        B, T, D = hidden.shape
        flat = hidden.reshape(-1, D)
        router_logits = self.gate(flat)
        weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        weights, selected = torch.topk(weights, self.top_k, dim=-1)
        weights = (weights / weights.sum(dim=-1, keepdim=True)).to(hidden.dtype)
        out = torch.zeros_like(flat)
        expert_mask = F.one_hot(selected, num_classes=self.n_experts).permute(2, 1, 0)
        for e in range(self.n_experts):
            slot, tok = torch.where(expert_mask[e])
            if tok.numel() == 0:
                continue
            contrib = self.experts[e](flat[tok]) * weights[tok, slot, None]
            out.index_add_(0, tok, contrib)
        return out.reshape(B, T, D), router_logits


class MoEDecoderLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.norm1 = nn.RMSNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.heads = heads
        self.norm2 = nn.RMSNorm(d)
        self.moe = SparseMoeBlock(d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        y, _ = self.moe(self.norm2(x))
        return x + y


def build():
    torch.manual_seed(0)
    model = MoEDecoderLayer().eval()
    x = torch.randn(3, 8, 32)
    return model, (x,)
