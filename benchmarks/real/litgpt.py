"""Lightning-AI/litgpt: GPTs built from its `Config` by name (Pythia: partial rotary and parallel residual; Llama 3.2: GQA and RMSNorm; Gemma 2: soft-capped scores by hand, sliding windows), with and without its `KVCache`.

Each config keeps its family's features at tiny sizes (2 layers, 4 heads, d 32, 16
positions). `build_<family>` runs 2 samples of 8 tokens without a cache (SDPA
`is_causal=True`; Gemma 2's hand-written softcapped path and its sliding-window mask);
`build_<family>_cached` prefills 5 tokens into a 16-slot cache, then 3 more through it
(`input_pos`, the cache's boolean `mask_cache` rows, keys fewer than the cache holds
masked out). All must be clean but one: `build_gemma_cached` is a **true** finding, a
`mask-value`: the softcapped path adds the cache's boolean keep-mask to the scores
(`scores + mask`, +1 or +0), so nothing is hidden and later tokens leak into earlier
positions (changing tokens 1-4 moves position 0's logits by 0.53; the cached logits differ
from the uncached ones by 0.57). Upstream issue #1672 reports it, open PR #2235 fixes it.
`build_causal_leak` plants a leak in the cache path: the
model's `mask_cache` built with `tril(..., diagonal=1)`, so each query also reads the
next slot; it must be a `causal-leak`. The package `__init__` imports the whole
application (lightning), so only the model modules are imported; `model.py`'s import of
the checkpoint converter (lightning again), used only to load legacy checkpoints, gets a
stand-in.
"""

from __future__ import annotations

import torch
from torch import nn

from benchmarks.real import source_module, source_package, stand_in

REPOSITORY = "Lightning-AI/litgpt"
COMMIT = "2685705"
FOLDER = "litgpt"
EXPECTED = {"build_pythia": [], "build_pythia_cached": [], "build_llama": [], "build_llama_cached": [],
            "build_gemma": [], "build_gemma_cached": ["mask-value"], "build_causal_leak": ["causal-leak"]}

TINY = dict(n_layer=2, n_head=4, n_embd=32, head_size=8, block_size=16, vocab_size=64, padded_vocab_size=64,
            intermediate_size=64)
FAMILIES = {
    "pythia": ("pythia-14m", {}),
    "llama": ("Llama-3.2-1B", dict(n_query_groups=2)),
    # Gemma 2 scales by its head size (256) through attention_scores_scalar: scaled down with it
    "gemma": ("Gemma-2-2b", dict(n_query_groups=2, attention_scores_scalar=8, sliding_window_size=6,
                                 sliding_window_indices=[1, 0])),
}


def _not_used(*args, **kwargs):
    raise NotImplementedError("legacy checkpoint conversion is not part of the harness")


def _model_code():
    source_package(FOLDER, "litgpt")
    stand_in("litgpt.scripts.convert_hf_checkpoint", qkv_reassemble=_not_used)
    return source_module(FOLDER, "litgpt.model")


class CachedPrefill(nn.Module):
    """The GPT run on a first chunk at positions 0..4, then on the next one at 5..7, through one cache."""

    def __init__(self, gpt) -> None:
        super().__init__()
        self.gpt = gpt

    def forward(self, first, second):
        start, end = first.size(1), first.size(1) + second.size(1)
        return torch.cat([self.gpt(first, input_pos=torch.arange(start)),
                          self.gpt(second, input_pos=torch.arange(start, end))], dim=1)


def _gpt(family: str, cached: bool, mask_diagonal: int = 0):
    model_code = _model_code()
    name, overrides = FAMILIES[family]
    torch.manual_seed(0)
    gpt = model_code.GPT(model_code.Config.from_name(name, **{**TINY, **overrides})).eval()
    gpt.apply(gpt._init_weights)
    ids = torch.randint(0, 64, (2, 8))
    if not cached:
        return gpt, (ids,)
    gpt.set_kv_cache(batch_size=2)
    gpt.mask_cache = torch.ones(16, 16, dtype=torch.bool).tril(diagonal=mask_diagonal)[None, None]
    return CachedPrefill(gpt).eval(), (ids[:, :5], ids[:, 5:])


def build_pythia():
    return _gpt("pythia", cached=False)


def build_pythia_cached():
    return _gpt("pythia", cached=True)


def build_llama():
    return _gpt("llama", cached=False)


def build_llama_cached():
    return _gpt("llama", cached=True)


def build_gemma():
    return _gpt("gemma", cached=False)


def build_gemma_cached():
    return _gpt("gemma", cached=True)


def build_causal_leak():
    return _gpt("llama", cached=True, mask_diagonal=1)
