"""pytorch-labs/gpt-fast: a Llama-style decoder whose KV cache is written in place (`k_cache[:, :, input_pos] = k`).

`build` prefills 8 tokens of 2 samples into a static cache of 16 slots (float32, tiny
config): attnscope must say nothing. `build_causal_leak` plants the bug issue 17 names: the
model's `causal_mask` built with `diagonal=1`, so every query reads one key ahead through
the cache; it must be a `causal-leak`, proven by the causal witness.
"""

from __future__ import annotations

import torch

from benchmarks.real import source_module

REPOSITORY = "pytorch-labs/gpt-fast"
COMMIT = "32971d3"
FOLDER = "gpt-fast"
EXPECTED = {"build": [], "build_causal_leak": ["causal-leak"]}


def _prefill(diagonal: int = 0):
    model_code = source_module(FOLDER, "model")
    torch.manual_seed(0)
    config = model_code.ModelArgs(block_size=32, vocab_size=64, n_layer=2, n_head=4, dim=32,
                                  intermediate_size=64, n_local_heads=2)
    model = model_code.Transformer(config).float().eval()
    model.setup_caches(max_batch_size=2, max_seq_length=16)
    for layer in model.layers:
        layer.attention.kv_cache.float()
    model.freqs_cis = model.freqs_cis.float()
    model.causal_mask = torch.tril(torch.ones(16, 16, dtype=torch.bool), diagonal=diagonal)
    return model, (torch.randint(0, 64, (2, 8)), torch.arange(8))


def build():
    return _prefill()


def build_causal_leak():
    return _prefill(diagonal=1)
