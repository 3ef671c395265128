"""Decoder-only LM block with a top-2 mixture-of-experts FFN (Mixtral-style router, dense dispatch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class SparseMoE(nn.Module):
    def __init__(self, dim, hidden, num_experts=4, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.w1 = nn.Parameter(torch.randn(num_experts, dim, hidden) * dim ** -0.5)
        self.w3 = nn.Parameter(torch.randn(num_experts, dim, hidden) * dim ** -0.5)
        self.w2 = nn.Parameter(torch.randn(num_experts, hidden, dim) * hidden ** -0.5)

    def forward(self, x):
        router_logits = self.gate(x)
        routing_weights = F.softmax(router_logits, dim=-1, dtype=torch.float)
        routing_weights, selected = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights / routing_weights.sum(dim=-1, keepdim=True)
        combine = torch.zeros_like(router_logits).scatter(-1, selected, routing_weights.to(x.dtype))
        h = F.silu(torch.einsum("btd,edh->bteh", x, self.w1)) * torch.einsum("btd,edh->bteh", x, self.w3)
        expert_out = torch.einsum("bteh,ehd->bted", h, self.w2)
        return torch.einsum("bted,bte->btd", expert_out, combine), router_logits


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.attn_norm = RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.ffn_norm = RMSNorm(dim)
        self.moe = SparseMoE(dim, 2 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.attn_norm(x)).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o_proj(y.transpose(1, 2).reshape(B, T, C))
        moe_out, router_logits = self.moe(self.ffn_norm(x))
        return x + moe_out, router_logits


class MoELM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        aux = []
        for layer in self.layers:
            x, logits = layer(x)
            aux.append(logits)
        return self.lm_head(self.norm(x)), torch.stack(aux)


def build():
    torch.manual_seed(0)
    model = MoELM().eval()
    return model, (torch.randint(0, 50, (3, 12)),)
