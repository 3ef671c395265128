"""pytorch/examples distributed/tensor_parallelism: the plain Llama 2 `Transformer` its tensor-parallel examples shard (GQA through `repeat_kv`, complex RoPE, SDPA with `is_causal=True`).

The model needs no process group: `build` runs it single-process on 2 samples of 8 tokens
(float32, tiny config); attnscope must say nothing. `build_causal_leak` plants a leak:
the module's `F.scaled_dot_product_attention` gets a mask that lets each query see one key
ahead; it must be a `causal-leak`, proven by the causal witness.
"""

from __future__ import annotations

from types import ModuleType

import torch
import torch.nn.functional as F

from benchmarks.real import source_file

REPOSITORY = "pytorch/examples"
COMMIT = "77f55b9"
FOLDER = "examples"
EXPECTED = {"build": [], "build_causal_leak": ["causal-leak"]}


def _one_key_ahead(q, k, v, is_causal=False, **options):
    """The planted bug: `tril(..., diagonal=1)` where `is_causal=True` was meant."""
    visible = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool).tril(diagonal=1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=visible, **options)


def _functional(leak: bool) -> ModuleType:
    """torch.nn.functional as the model file sees it, with the planted attention if `leak`."""
    if not leak:
        return F
    leaky = ModuleType("functional_one_key_ahead")
    leaky.__dict__.update(vars(F))
    leaky.scaled_dot_product_attention = _one_key_ahead
    return leaky


def _tokens(leak: bool):
    model_code = source_file(FOLDER, "distributed/tensor_parallelism/llama2_model.py")  # dask owns `distributed`
    model_code.F = _functional(leak)
    torch.manual_seed(0)
    config = model_code.ModelArgs(dim=32, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=64, multiple_of=16,
                                  max_batch_size=2, max_seq_len=16)
    return model_code.Transformer(config).eval(), (torch.randint(0, 64, (2, 8)),)


def build():
    return _tokens(leak=False)


def build_causal_leak():
    return _tokens(leak=True)
