"""Gemma-2-style decoder: GQA, query_pre_attn_scalar, attention and final logit soft-capping, local/global layers."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GemmaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        x32 = x.float()
        out = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return (out * (1.0 + self.weight.float())).type_as(x)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Config:
    vocab_size = 64
    hidden_size = 48
    num_attention_heads = 4
    num_key_value_heads = 2
    head_dim = 16
    query_pre_attn_scalar = 12  # hidden_size / num_attention_heads, as in Gemma-2-27B
    attn_logit_softcapping = 50.0
    final_logit_softcapping = 30.0
    sliding_window = 4
    num_hidden_layers = 2
    pad_token_id = 0


class GemmaAttention(nn.Module):
    def __init__(self, cfg, layer_idx):
        super().__init__()
        self.cfg = cfg
        self.is_sliding = layer_idx % 2 == 0
        self.n_rep = cfg.num_attention_heads // cfg.num_key_value_heads
        self.scaling = cfg.query_pre_attn_scalar ** -0.5
        self.q_proj = nn.Linear(cfg.hidden_size, cfg.num_attention_heads * cfg.head_dim, bias=False)
        self.k_proj = nn.Linear(cfg.hidden_size, cfg.num_key_value_heads * cfg.head_dim, bias=False)
        self.v_proj = nn.Linear(cfg.hidden_size, cfg.num_key_value_heads * cfg.head_dim, bias=False)
        self.o_proj = nn.Linear(cfg.num_attention_heads * cfg.head_dim, cfg.hidden_size, bias=False)

    def forward(self, x, cos, sin, global_mask, sliding_mask):
        B, T, _ = x.shape
        hd = self.cfg.head_dim
        q = self.q_proj(x).view(B, T, -1, hd).transpose(1, 2)
        k = self.k_proj(x).view(B, T, -1, hd).transpose(1, 2)
        v = self.v_proj(x).view(B, T, -1, hd).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k, v = k.repeat_interleave(self.n_rep, dim=1), v.repeat_interleave(self.n_rep, dim=1)
        scores = torch.matmul(q, k.transpose(2, 3)) * self.scaling
        cap = self.cfg.attn_logit_softcapping
        scores = torch.tanh(scores / cap) * cap
        scores = scores + (sliding_mask if self.is_sliding else global_mask)
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        return self.o_proj(torch.matmul(probs, v).transpose(1, 2).reshape(B, T, -1))


class GemmaLayer(nn.Module):
    def __init__(self, cfg, idx):
        super().__init__()
        self.self_attn = GemmaAttention(cfg, idx)
        self.input_layernorm = GemmaRMSNorm(cfg.hidden_size)
        self.post_attention_layernorm = GemmaRMSNorm(cfg.hidden_size)
        self.pre_feedforward_layernorm = GemmaRMSNorm(cfg.hidden_size)
        self.post_feedforward_layernorm = GemmaRMSNorm(cfg.hidden_size)
        self.gate_proj = nn.Linear(cfg.hidden_size, 2 * cfg.hidden_size, bias=False)
        self.up_proj = nn.Linear(cfg.hidden_size, 2 * cfg.hidden_size, bias=False)
        self.down_proj = nn.Linear(2 * cfg.hidden_size, cfg.hidden_size, bias=False)

    def forward(self, x, *masks):
        x = x + self.post_attention_layernorm(self.self_attn(self.input_layernorm(x), *masks))
        h = self.pre_feedforward_layernorm(x)
        h = self.down_proj(F.gelu(self.gate_proj(h), approximate="tanh") * self.up_proj(h))
        return x + self.post_feedforward_layernorm(h)


class Gemma2(nn.Module):
    def __init__(self, cfg=Config()):
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_size, padding_idx=cfg.pad_token_id)
        self.layers = nn.ModuleList(GemmaLayer(cfg, i) for i in range(cfg.num_hidden_layers))
        self.norm = GemmaRMSNorm(cfg.hidden_size)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        x = self.embed_tokens(input_ids) * torch.tensor(self.cfg.hidden_size ** 0.5, dtype=torch.float32)
        pos = torch.arange(T, dtype=torch.float32)
        inv = 1.0 / 10000 ** (torch.arange(0, self.cfg.head_dim, 2).float() / self.cfg.head_dim)
        emb = torch.cat([pos[:, None] * inv, pos[:, None] * inv], dim=-1)
        cos, sin = emb.cos(), emb.sin()
        i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
        keep = (j <= i)[None, None] & attention_mask.bool()[:, None, None, :]
        min_value = torch.finfo(x.dtype).min
        global_mask = torch.zeros(B, 1, T, T).masked_fill(~keep, min_value)
        sliding_mask = global_mask.masked_fill(i - j >= self.cfg.sliding_window, min_value)
        for layer in self.layers:
            x = layer(x, cos, sin, global_mask, sliding_mask)
        logits = F.linear(self.norm(x), self.embed_tokens.weight)
        cap = self.cfg.final_logit_softcapping
        return torch.tanh(logits / cap) * cap


def build():
    torch.manual_seed(0)
    model = Gemma2().eval()
    lens = torch.tensor([12, 9, 5])
    attention_mask = (torch.arange(12)[None] < lens[:, None]).long()
    input_ids = torch.randint(1, 64, (3, 12)) * attention_mask
    return model, (input_ids, attention_mask)
