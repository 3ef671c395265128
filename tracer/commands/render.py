"""`attnscope render TARGET -o FILE`: a Graphviz diagram of one forward pass, axis errors in red.

The format follows FILE's suffix (.svg .png .pdf .dot, or .graphml / .json exports of the
graph). TARGET is any target `check` takes, or a recording saved with `t.save(...)` (a
`.attntrace` file). Exit status: 0 when the file was
written, 2 for a target that cannot be loaded, an unknown module or format, or Graphviz
missing for an image format (.dot needs no Graphviz). `--device meta` draws a model built
without its weights (shapes only).

The renderer (and torch with it) is imported when the command runs, not for `--help`.
"""

from __future__ import annotations

import argparse

from .common import OK, USAGE, Command, add_device_argument, add_layout_argument, error, trace_target


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET",
                        help="path/to/file.py:NAME, notebook.ipynb[:NAME], dotted.module:NAME, zoo:NAME or a saved .attntrace recording")
    parser.add_argument("-o", "--output", metavar="FILE", required=True,
                        help="where to write; the suffix picks the format: .svg .png .pdf .dot .graphml .json")
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
    from ..render import RenderError, RenderOptions, render_to_file
    from ..render.output import format_of
    from ..targets import isolated

    try:
        format_of(options.output)  # an unknown suffix or theme fails before the model runs
        RenderOptions.of(theme=options.theme)
    except RenderError as problem:
        error(str(problem))
        return USAGE
    with isolated():  # a saved recording is read, anything else traced
        _, recorded = trace_target(options.target, layout=options.layout, device=options.device)
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
