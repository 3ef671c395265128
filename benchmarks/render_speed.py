"""How long `attnscope render` takes: the reference encoder-decoder and a GPT-2-small-sized model.

    .venv/bin/python benchmarks/render_speed.py            # prints a table of timings
    .venv/bin/python benchmarks/render_speed.py --out DIR  # also keeps the rendered files

The GPT-2-small-sized model is written out here in plain PyTorch (12 layers, d=768, 12
heads, vocabulary 50,257, tied embeddings) and run on one sequence of 16 tokens. The goal
(issue 4) is under 5 s for `--depth 2`; the script prints figures and asserts nothing, so
slow CI machines never fail a build over it.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tracer.api import run_check  # noqa: E402
from tracer.render import diagram  # noqa: E402


class CausalSelfAttention(nn.Module):
    def __init__(self, d: int, heads: int, context: int) -> None:
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.register_buffer("bias", torch.tril(torch.ones(context, context, dtype=torch.bool)).view(1, 1, context, context))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        q = q.view(batch, length, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(batch, length, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(batch, length, self.heads, d // self.heads).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        scores = scores.masked_fill(~self.bias[:, :, :length, :length], float("-inf"))
        weights = F.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).contiguous().view(batch, length, d)
        return self.c_proj(out)


class MLP(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.c_fc = nn.Linear(d, 4 * d)
        self.c_proj = nn.Linear(4 * d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self, d: int, heads: int, context: int) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads, context)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = MLP(d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2Small(nn.Module):
    def __init__(self, vocab: int = 50257, context: int = 1024, d: int = 768, heads: int = 12, layers: int = 12) -> None:
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(context, d)
        self.h = nn.ModuleList(Block(d, heads, context) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(tokens.size(1), device=tokens.device)
        x = self.wte(tokens) + self.wpe(positions)
        for block in self.h:
            x = block(x)
        return F.linear(self.ln_f(x), self.wte.weight)  # tied output embedding


def gpt2_small() -> tuple[nn.Module, tuple[torch.Tensor]]:
    torch.manual_seed(0)
    return GPT2Small().eval(), (torch.randint(0, 50257, (1, 16)),)


def encoder_decoder() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    from models.zoo import ref_encoder_decoder

    return ref_encoder_decoder.build()


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


CASES = (
    ("depth 2", {"depth": 2}),
    ("depth 2, --expand", {"depth": 2, "expand": True}),
    ("fully expanded (--expand, every level)", {"expand": True}),
    ("attention view", {"attention": True}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="keep the rendered SVGs in this folder")
    options = parser.parse_args()
    out = options.out or tempfile.mkdtemp(prefix="attnscope-render-")
    os.makedirs(out, exist_ok=True)
    print(f"{'model':<24} {'diagram':<40} {'boxes':>6} {'build+DOT':>10} {'dot -Tsvg':>10} {'total':>8}")
    for name, build in (("encoder-decoder (ref)", encoder_decoder), ("GPT-2-small size, T=16", gpt2_small)):
        (model, args), build_seconds = timed(build)
        print(f"{name:<24} {'(building the model)':<40} {'':>6} {'':>10} {'':>10} {build_seconds:>7.2f}s")
        with torch.no_grad():
            (_, recorded), seconds = timed(run_check, model, args)
            _, analysis_seconds = timed(lambda: recorded.analysis)
        print(f"{name:<24} {'(trace + analysis, not rendering)':<40} {'':>6} {'':>10} {'':>10} {seconds + analysis_seconds:>7.2f}s")
        for label, settings in CASES:
            made, build_seconds = timed(diagram, recorded, **settings)
            svg, layout_seconds = timed(made.svg)
            path = os.path.join(out, f"{name.split()[0].lower()}-{label.split()[0]}-{len(made.drawing.nodes)}.svg")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(svg)
            total = build_seconds + layout_seconds
            print(f"{'':<24} {label:<40} {len(made.drawing.nodes):>6} {build_seconds:>9.2f}s {layout_seconds:>9.2f}s {total:>7.2f}s")
    print(f"files in {out}")


if __name__ == "__main__":
    main()
