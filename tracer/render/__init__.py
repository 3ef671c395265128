"""Graphviz diagrams of a recorded forward pass: shapes *with meaning*, and the axis errors flagged.

    from tracer.render import diagram, render_to_file
    diagram(t, depth=2)                       # a Diagram: shows inline in Jupyter
    render_to_file(t, "model.svg", depth=2)   # format from the suffix: svg png pdf dot graphml json
    t.render("model.svg", depth=2)            # the same, from a Trace

Stages, each its own module: `simplify` (fold bookkeeping, group idioms), `repeats` (find
identical blocks), `build` (graph -> drawing model), `attention_view` (canonical attention
blocks), `dot` (drawing -> DOT with a theme), `output` (formats, Jupyter, exports).
"""

from __future__ import annotations

import os
from typing import Any

from ..analysis import Analysis
from .model import Drawing, RenderError, RenderOptions
from .output import FORMATS, Diagram, RenderedPath, format_of, write_export


def _analysis_of(target: Any) -> Analysis:
    """An Analysis, or anything that has one (a `Trace`)."""
    if isinstance(target, Analysis):
        return target
    analysis = getattr(target, "analysis", None)
    if isinstance(analysis, Analysis):
        return analysis
    raise TypeError(f"render needs a Trace or an Analysis, got {type(target).__name__}")


def drawing(target: Any, options: RenderOptions) -> Drawing:
    """The drawing model (boxes, frames, edges) before any Graphviz syntax; tests read this."""
    analysis = _analysis_of(target)
    if options.attention:
        from .attention_view import build_attention_drawing

        return build_attention_drawing(analysis, options)
    from .build import build_drawing

    return build_drawing(analysis, options)


def diagram(target: Any, **options: Any) -> Diagram:
    """The diagram of a Trace or Analysis with `RenderOptions` keywords; displays inline in Jupyter."""
    from .dot import to_digraph

    settings = RenderOptions.of(**options)
    made = drawing(target, settings)
    return Diagram(made, to_digraph(made, settings.theme, settings.legend))


def render_to_file(target: Any, path: str | os.PathLike[str], **options: Any) -> RenderedPath:
    """Write the diagram to `path`; the suffix picks the format (see `FORMATS`).

    Returns the path (a str that also displays the diagram in Jupyter). Raises `RenderError`
    for an unknown suffix or focus module, and when Graphviz is needed but missing.
    """
    path = os.fspath(path)
    fmt = format_of(path)
    settings = RenderOptions.of(**options)
    if fmt in ("graphml", "json"):
        write_export(_analysis_of(target), path, fmt, settings)
        return RenderedPath(path, lambda: diagram(target, **options))
    made = diagram(target, **options)
    made.save(path)
    return RenderedPath(path, made)


__all__ = ["FORMATS", "Diagram", "Drawing", "RenderError", "RenderOptions", "diagram", "drawing", "render_to_file"]
