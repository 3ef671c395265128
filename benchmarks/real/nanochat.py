"""karpathy/nanochat: GQA, sliding windows, value embeddings and a KV cache the SDPA fallback writes in place (`k_cache[:, pos:pos + T] = k`).

`build` prefills 5 tokens into the cache, then 4 more as a chunk (queries fewer than keys,
the fallback's explicit mask): attnscope must say nothing. `build_causal_leak` plants the
leak issue 17 names: the attention sees one key past each query. It must be a
`causal-leak`, proven by the causal witness. The cache is a small holder of our own with
the interface `GPT.forward` reads (the repository's engine imports its tokenizer). The
repository's `init_weights` zero-initializes the output projections, so the harness draws
them at random: at init no attention output reaches the logits at all.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from benchmarks.real import source_module

REPOSITORY = "karpathy/nanochat"
COMMIT = "92d63d4"
FOLDER = "nanochat"
EXPECTED = {"build": [], "build_causal_leak": ["causal-leak"]}


class Cache:
    """Per-layer key and value slots (layers, B, T_max, H, D) and the filled length."""

    def __init__(self, layers: int, batch: int, length: int, heads: int, head_dim: int) -> None:
        self.n_layers = layers
        self.k_cache = torch.zeros(layers, batch, length, heads, head_dim)
        self.v_cache = torch.zeros(layers, batch, length, heads, head_dim)
        self.cache_seqlens = torch.zeros(batch, dtype=torch.int32)
        self.prev_embedding = None

    def get_pos(self) -> int:
        return int(self.cache_seqlens[0])

    def get_layer_cache(self, layer: int):
        return self.k_cache[layer], self.v_cache[layer]

    def advance(self, tokens: int) -> None:
        self.cache_seqlens += tokens


class ChunkedPrefill(torch.nn.Module):
    """The repository's GPT run on a first chunk, then on a second one into the same cache."""

    def __init__(self, gpt, cache: Cache) -> None:
        super().__init__()
        self.gpt, self.cache = gpt, cache

    def forward(self, first, second):
        return torch.cat([self.gpt(first, kv_cache=self.cache), self.gpt(second, kv_cache=self.cache)], dim=1)


def _one_key_ahead(q, k, v, window_size, enable_gqa):
    """The planted bug: each query also sees the key right after its own."""
    size_q, size_k = q.size(2), k.size(2)
    visible = torch.arange(size_k)[None, :] <= (size_k - size_q) + torch.arange(size_q)[:, None] + 1
    return F.scaled_dot_product_attention(q, k, v, attn_mask=visible, enable_gqa=enable_gqa)


def _prefill(leak: bool):
    gpt_code = source_module(FOLDER, "nanochat.gpt")
    attention = source_module(FOLDER, "nanochat.flash_attention")
    if leak:
        attention._sdpa_attention = _one_key_ahead
    torch.manual_seed(0)
    config = gpt_code.GPTConfig(sequence_len=16, vocab_size=64, n_layer=2, n_head=4, n_kv_head=2, n_embd=32,
                                window_pattern="L")
    gpt = gpt_code.GPT(config, pad_vocab_size_to=8)
    gpt.init_weights()
    with torch.no_grad():  # init_weights zeroes the output projections: attention would reach nothing yet
        for parameter in gpt.parameters():
            if parameter.dim() == 2 and not bool(parameter.any()):
                parameter.normal_(0.0, 0.2)
        gpt.resid_lambdas.fill_(1.0)
    gpt = gpt.float().eval()
    cache = Cache(config.n_layer, 2, 16, config.n_kv_head, config.n_embd // config.n_head)
    ids = torch.randint(0, 64, (2, 9))
    return ChunkedPrefill(gpt, cache).eval(), (ids[:, :5], ids[:, 5:])


def build():
    return _prefill(leak=False)


def build_causal_leak():
    return _prefill(leak=True)
