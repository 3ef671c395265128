"""`attnscope render TARGET -o FILE`: a Graphviz diagram of one forward pass, axis errors in red.

The format follows FILE's suffix (.svg .png .pdf .dot or .gv, or .graphml / .json exports of
the graph); the suffix, FILE's folder, `--depth` and `--theme` are checked before the target
is traced. What the target prints while it runs is framed under its name, as `check` frames
it, terminal control sequences removed. TARGET is any target `check` takes, or a recording saved with `t.save(...)` (a
`.attntrace` file). Exit status: 0 when the file was
written, 2 for a target that cannot be loaded, an unknown module or format, or Graphviz
missing for an image format (.dot needs no Graphviz). `--device meta` draws a model built
without its weights (shapes only).

The renderer (and torch with it) is imported when the command runs, not for `--help`.
"""

from __future__ import annotations

import argparse
import os

from .common import OK, USAGE, Command, add_device_argument, add_layout_argument, error, trace_apart

# What `tracer.render` accepts, known here without importing it (and torch with it), so that a
# wrong option is refused in a fraction of a second, before the target is traced.
# tests/tracer/test_render.py keeps these equal to the renderer's own.
SUFFIXES = (".svg", ".png", ".pdf", ".dot", ".gv", ".graphml", ".json")
THEMES = ("light", "dark")


def _options_problem(options: argparse.Namespace) -> str | None:
    """Why `render`'s options cannot make a diagram, found before anything is traced, or None."""
    output = options.output
    suffix = os.path.splitext(output)[1].lower()
    if suffix not in SUFFIXES:
        shown = suffix or "no suffix"
        return f"-o {output}: cannot tell the format from {shown}: use one of {', '.join(SUFFIXES)}"
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        return f"-o {output}: no such folder {os.path.dirname(output) or folder}"
    if os.path.isdir(output):
        return f"-o {output}: is a folder; name the file to write"
    if options.depth is not None and options.depth < 0:
        return f"--depth {options.depth}: the depth is a whole number >= 0 (0: only the drawn module's own ops)"
    if options.theme not in THEMES:
        return f"--theme {options.theme}: the themes are {' and '.join(THEMES)}"
    return None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET",
                        help="path/to/file.py:NAME, notebook.ipynb[:NAME], dotted.module:NAME, zoo:NAME or a saved .attntrace recording")
    parser.add_argument("-o", "--output", metavar="FILE", required=True,
                        help="where to write; the suffix picks the format: .svg .png .pdf .dot (or .gv) .graphml .json")
    parser.add_argument("--depth", type=int, metavar="N", default=None,
                        help="open N levels of modules below the drawn root; deeper ones become one box each "
                             "showing their input and output axes (default: open every level)")
    parser.add_argument("--focus", metavar="MODULE", default=None,
                        help="draw the inside of one module, by dotted path (e.g. layers.0.self_attn)")
    parser.add_argument("--attention", action="store_true",
                        help="draw each attention block in the canonical form Q, K, V -> scores -> scale -> "
                             "mask -> softmax -> x V -> concat -> W_O")
    parser.add_argument("--all-ops", action="store_true",
                        help="draw every op and parameter (no folding of bookkeeping ops, dead ends, head splits)")
    parser.add_argument("--no-flags", action="store_true", help="a clean diagram: findings are not drawn")
    parser.add_argument("--expand", action="store_true",
                        help="draw repeated identical blocks one by one instead of once with 'x N'")
    parser.add_argument("--theme", default="light", metavar="THEME", help="colours: light (default) or dark")
    parser.add_argument("--no-legend", action="store_true", help="leave out the legend box")
    parser.add_argument("--witness", action="store_true",
                        help="outline the ops a witnessed change passed through, from where it got in (orange)")
    add_layout_argument(parser)
    add_device_argument(parser)


def run(options: argparse.Namespace) -> int:
    refused = _options_problem(options)  # a wrong option fails before the model runs, in a fraction of a second
    if refused:
        error(refused)
        return USAGE
    from ..render import RenderError, render_to_file

    traced = trace_apart(options.target, layout=options.layout, device=options.device)  # a recording is read
    if traced is None:
        return USAGE
    _, recorded = traced
    try:
        written = render_to_file(
            recorded, options.output, depth=options.depth, focus=options.focus, attention=options.attention,
            all_ops=options.all_ops, flags=not options.no_flags, expand=options.expand, theme=options.theme,
            legend=not options.no_legend, witness=options.witness,
        )
    except RenderError as problem:
        error(str(problem))
        return USAGE
    print(f"wrote {written}")
    return OK


COMMAND = Command("render", "draw one forward pass as a Graphviz diagram, axis errors in red", add_arguments, run)
