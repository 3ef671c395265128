import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gen_slopes(n_heads, alibi_bias_max=8):
    _n_heads = 2 ** math.ceil(math.log2(n_heads))
    m = torch.arange(1, _n_heads + 1, dtype=torch.float32)
    m = m.mul(alibi_bias_max / _n_heads)
    slopes = 1.0 / torch.pow(2, m)
    if _n_heads != n_heads:
        slopes = torch.concat([slopes[1::2], slopes[::2]])[:n_heads]
    return slopes.view(1, n_heads, 1, 1)


def build_alibi_bias(n_heads, seq_len, alibi_bias_max=8, dtype=None):
    alibi_bias = torch.arange(1 - seq_len, 1, dtype=torch.int32).view(1, 1, seq_len, 1)
    slopes = gen_slopes(n_heads, alibi_bias_max)
    alibi_bias = alibi_bias * slopes
    return alibi_bias.to(dtype=dtype)


def scaled_multihead_dot_product_attention(query, key, value, n_heads, softmax_scale=None, attn_bias=None,
                                           is_causal=False, dropout_p=0.0, training=False):
    q = query.view(query.shape[0], query.shape[1], n_heads, -1).transpose(1, 2)
    k = key.view(key.shape[0], key.shape[1], n_heads, -1).permute(0, 2, 3, 1)
    v = value.view(value.shape[0], value.shape[1], n_heads, -1).transpose(1, 2)
    b, _, s_q, d = q.shape
    s_k = k.size(-1)
    if softmax_scale is None:
        softmax_scale = 1 / math.sqrt(d)
    attn_weight = q.matmul(k) * softmax_scale
    if attn_bias is not None:
        attn_weight = attn_weight + attn_bias
    min_val = torch.finfo(q.dtype).min
    if is_causal:
        s = max(s_q, s_k)
        causal_mask = attn_weight.new_ones(s, s, dtype=torch.float32)
        causal_mask = causal_mask.tril()
        causal_mask = causal_mask.to(torch.bool)
        causal_mask = ~causal_mask
        causal_mask = causal_mask[-s_q:, -s_k:]
        attn_weight = attn_weight.masked_fill(causal_mask.view(1, 1, s_q, s_k), min_val)
    attn_weight = torch.softmax(attn_weight, dim=-1)
    if dropout_p:
        attn_weight = F.dropout(attn_weight, p=dropout_p, training=training)
    out = attn_weight.matmul(v)
    b, h, s, d = out.shape
    return out.transpose(1, 2).reshape(b, s, h * d)


class MultiheadAttention(nn.Module):
    def __init__(self, d_model, n_heads, attn_pdrop=0.0):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.attn_dropout_p = attn_pdrop
        self.Wqkv = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attn_bias=None):
        qkv = self.Wqkv(x)
        query, key, value = qkv.chunk(3, dim=2)
        context = scaled_multihead_dot_product_attention(
            query, key, value, self.n_heads, attn_bias=attn_bias, is_causal=True,
            dropout_p=self.attn_dropout_p, training=self.training,
        )
        return self.out_proj(context)


class MPTBlock(nn.Module):
    def __init__(self, d_model, n_heads, expansion_ratio=4):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model)
        self.attn = MultiheadAttention(d_model, n_heads)
        self.norm_2 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(
            nn.Linear(d_model, expansion_ratio * d_model), nn.GELU(approximate="none"), nn.Linear(expansion_ratio * d_model, d_model)
        )

    def forward(self, x, attn_bias=None):
        x = x + self.attn(self.norm_1(x), attn_bias=attn_bias)
        return x + self.ffn(self.norm_2(x))


class MPTForCausalLM(nn.Module):
    def __init__(self, vocab_size=60, d_model=32, n_heads=4, n_layers=2, max_seq_len=32):
        super().__init__()
        self.n_heads = n_heads
        self.max_seq_len = max_seq_len
        self.wte = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList([MPTBlock(d_model, n_heads) for _ in range(n_layers)])
        self.norm_f = nn.LayerNorm(d_model)

    def forward(self, input_ids):
        S = input_ids.size(1)
        assert S <= self.max_seq_len
        x = self.wte(input_ids)
        attn_bias = build_alibi_bias(self.n_heads, S, dtype=x.dtype)
        for block in self.blocks:
            x = block(x, attn_bias=attn_bias)
        x = self.norm_f(x)
        return F.linear(x, self.wte.weight)


def build():
    torch.manual_seed(0)
    model = MPTForCausalLM().eval()
    input_ids = torch.randint(0, 60, (2, 12))
    return model, (input_ids,)
