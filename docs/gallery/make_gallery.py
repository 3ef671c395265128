"""Regenerate docs/gallery/: diagrams of the reference models and of buggy zoo models.

    .venv/bin/python docs/gallery/make_gallery.py           # rewrite the SVGs, PNGs and README.md
    .venv/bin/python docs/gallery/make_gallery.py --check   # exit 1 if an SVG or the index is out of date

Every image is written by the same code path as `attnscope render`, so the gallery is
also a smoke test of it. Output is deterministic: rerunning on an unchanged tree changes
no SVG byte (PNGs depend on the Graphviz build and its fonts, so they may differ between
machines).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from tracer.commands.common import trace_target  # noqa: E402
from tracer.render import render_to_file  # noqa: E402
from tracer.targets import isolated  # noqa: E402

# (file stem, zoo target, render options, also write a PNG, caption for the index)
GALLERY: tuple[tuple[str, str, dict, bool, str], ...] = (
    ("encoder_postnorm", "ref_encoder_postnorm", {"depth": 1}, True,
     "Reference post-norm encoder stack at depth 1: X' = LN(X + MHA(X)), two identical layers drawn once (× 2)."),
    ("encoder_postnorm_full", "ref_encoder_postnorm", {}, False,
     "The same stack fully opened: head split and merge as one box each, the padding mask along B and Tk."),
    ("encoder_decoder_depth2", "ref_encoder_decoder", {"depth": 2}, True,
     "Reference encoder-decoder at depth 2: sublayers as boxes with their input and output axes."),
    ("encoder_decoder_attention_dark", "ref_encoder_decoder", {"attention": True, "theme": "dark"}, True,
     "Attention view, dark theme: encoder self-attention (padding over keys), decoder self-attention (causal + padding over keys), "
     "cross-attention (Tq = target, Tk = source)."),
    ("exercise4_attention", "exercise4", {"attention": True}, True,
     "Exercise 4 in canonical form: Q, K, V → scores (Tq × Tk) → scale → mask → softmax → × V → concat → W_O."),
    ("softmax_axis_query", "softmax_axis_query", {}, True,
     "Zoo: softmax over the query axis (dim=-2), flagged red."),
    ("softmax_axis_query_dark", "softmax_axis_query", {"theme": "dark"}, False,
     "The same, dark theme."),
    ("softmax_axis_query_attention", "softmax_axis_query", {"attention": True}, False,
     "The same bug in the attention view: the softmax step is red."),
    ("causal_diagonal_triu_zero", "causal_diagonal_triu_zero", {}, True,
     "Zoo: triu(diagonal=0) hides the diagonal; the mask box says so."),
    ("head_split_view_no_transpose", "head_split_view_no_transpose", {}, False,
     "Zoo: view(B, H, T, d_h) without the transpose tears tokens and features (the ? axis, red edges)."),
    ("layernorm_axis_depth0", "layernorm_axis_mean_dim1", {"depth": 0}, False,
     "Zoo: a LayerNorm with statistics over the sequence axis, collapsed: the module box turns red."),
)


def index(rows: list[tuple[str, str, str]]) -> str:
    lines = ["# Gallery", "", "Regenerate with `.venv/bin/python docs/gallery/make_gallery.py`; "
             "see [../rendering.md](../rendering.md#diagrams).", ""]
    for stem, command, caption in rows:
        lines += [f"## {stem}", "", caption, "", f"`{command}`", "", f"![{stem}]({stem}.svg)", ""]
    return "\n".join(lines)


def flags(options: dict) -> str:
    parts = []
    for key, value in options.items():
        name = "--" + key.replace("_", "-")
        parts.append(name if value is True else f"{name} {value}")
    return " ".join(parts)


def make(folder: str, pngs: bool = True) -> list[tuple[str, str, str]]:
    """Write every gallery SVG (and its PNG where asked) into `folder`; the index rows."""
    rows = []
    for stem, target, options, png, caption in GALLERY:
        start = time.perf_counter()
        with isolated():
            _, recorded = trace_target(f"zoo:{target}")
        render_to_file(recorded, os.path.join(folder, f"{stem}.svg"), **options)
        if png and pngs:
            render_to_file(recorded, os.path.join(folder, f"{stem}.png"), **options)
        command = f"attnscope render zoo:{target} -o {stem}.svg {flags(options)}".strip()
        rows.append((stem, command, caption))
        print(f"{stem:<34} {time.perf_counter() - start:5.2f}s", file=sys.stderr)
    return rows


def stale() -> list[str]:
    """The gallery's files that differ from what the renderer draws today (SVGs and the index;
    PNGs depend on the Graphviz build and its fonts, so they are not compared)."""
    with tempfile.TemporaryDirectory() as fresh:
        rows = make(fresh, pngs=False)
        differ = []
        for stem, *_ in rows:
            with open(os.path.join(fresh, f"{stem}.svg"), "rb") as drawn:
                now = drawn.read()
            try:
                with open(os.path.join(HERE, f"{stem}.svg"), "rb") as kept:
                    same = kept.read() == now
            except OSError:
                same = False
            if not same:
                differ.append(f"{stem}.svg")
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as handle:
        if handle.read() != index(rows):
            differ.append("README.md")
    return differ


def main(argv: list[str]) -> int:
    os.chdir(os.path.dirname(os.path.dirname(HERE)))  # file names in the drawings are relative to the repository
    if "--check" in argv:
        differ = stale()
        if differ:
            print(f"docs/gallery is out of date ({', '.join(differ)}): run .venv/bin/python docs/gallery/make_gallery.py",
                  file=sys.stderr)
            return 1
        return 0
    rows = make(HERE)
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as handle:
        handle.write(index(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
