"""Writing diagrams: formats by suffix, Graphviz missing, Jupyter display, graph exports.

`.dot` is written by Python alone, so it works where Graphviz's `dot` program is not
installed; every other image format runs `dot` and, when it is missing, fails with one line
that says how to install it. `.graphml` and `.json` export the networkx graph itself (with
`(name, role)` axes on edges and finding codes on ops) for other tools; see docs/graph.md.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import graphviz
import networkx as nx

from ..analysis import Analysis
from ..graph import write_graph
from .model import Drawing, RenderError, RenderOptions

IMAGE_FORMATS = ("svg", "png", "pdf")
FORMATS = ("svg", "png", "pdf", "dot", "graphml", "json")
SUFFIXES = ("svg", "png", "pdf", "dot", "gv", "graphml", "json")  # .gv is DOT, as Graphviz names it
INSTALL_HINT = (
    "Graphviz's `dot` program was not found: install Graphviz "
    "(apt-get install graphviz, brew install graphviz or conda install graphviz) to write .{fmt} files; "
    ".dot output works without it"
)
PNG_DPI = "144"
SVG_SIZE = re.compile(r'<svg width="[^"]*" height="[^"]*"')


def responsive_svg(svg: str) -> str:
    """The SVG without its fixed size: it scales to the notebook's width (viewBox kept), never clipped."""
    return SVG_SIZE.sub('<svg style="max-width:100%;height:auto"', svg, count=1)


class Diagram:
    """A rendered diagram: its DOT source, and images made from it on demand.

    Displays inline in Jupyter (SVG scaled to the cell's width), falling back to the DOT
    source as text when Graphviz is not installed.
    """

    def __init__(self, drawing: Drawing, graph: graphviz.Digraph) -> None:
        self.drawing = drawing
        self.graph = graph
        self.source: str = graph.source

    def pipe(self, fmt: str) -> bytes:
        """The diagram as `fmt` bytes made by `dot`; RenderError with the install hint when it is missing."""
        graph = self.graph
        if fmt == "png":
            graph = graph.copy()
            graph.attr(dpi=PNG_DPI)
        try:
            return graph.pipe(format=fmt)
        except graphviz.ExecutableNotFound:
            raise RenderError(INSTALL_HINT.format(fmt=fmt)) from None
        except graphviz.CalledProcessError as failed:
            detail = (failed.stderr or b"").decode(errors="replace").strip().splitlines()
            raise RenderError(f"Graphviz failed to lay out the diagram: {detail[-1] if detail else failed}") from None

    def svg(self) -> str:
        return self.pipe("svg").decode("utf-8")

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the diagram in the format its suffix names (.svg .png .pdf .dot)."""
        path = os.fspath(path)
        fmt = format_of(path)
        if fmt == "dot":
            data = self.source.encode("utf-8")
        elif fmt in IMAGE_FORMATS:
            data = self.pipe(fmt)
        else:
            raise RenderError(f"a diagram is saved as .svg, .png, .pdf or .dot, not .{fmt}")
        _write(path, data)
        return path

    def _repr_svg_(self) -> str | None:
        try:
            return responsive_svg(self.svg())
        except RenderError:
            return None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        bundle = {"text/plain": self.source}
        svg = self._repr_svg_()
        if svg is not None:
            bundle["image/svg+xml"] = svg
        return bundle

    def __repr__(self) -> str:
        return f"<Diagram {self.drawing.title!r}: {len(self.drawing.nodes)} boxes, {len(self.drawing.edges)} edges>"


class RenderedPath(str):
    """The path `render` wrote, as a plain string that also shows the diagram in Jupyter.

    The diagram is made on first use (an export never needs it).
    """

    _make: Callable[[], Diagram]
    _made: Diagram | None

    def __new__(cls, path: str, make: Callable[[], Diagram] | Diagram) -> "RenderedPath":
        made = super().__new__(cls, path)
        made._make = make if callable(make) else (lambda: make)
        made._made = None
        return made

    @property
    def diagram(self) -> Diagram:
        if self._made is None:
            self._made = self._make()
        return self._made

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        bundle = self.diagram._repr_mimebundle_(include, exclude)
        bundle["text/plain"] = str.__repr__(self)
        return bundle


def format_of(path: str) -> str:
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    if suffix == "gv":
        return "dot"
    if suffix not in FORMATS:
        shown = f".{suffix}" if suffix else "no suffix"
        raise RenderError(f"cannot tell the format from {shown}: use one of {', '.join('.' + f for f in SUFFIXES)}")
    return suffix


def _write(path: str, data: bytes) -> None:
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as problem:
        raise RenderError(f"cannot write {path}: {problem.strerror or problem}") from None


# ------------------------------------------------------------------ graph exports
def export_graph(analysis: Analysis, options: RenderOptions) -> nx.MultiDiGraph:
    """The analysis's graph (axes on edges, finding codes on ops), cut to `options.focus` if given."""
    source = analysis.graph
    if not options.focus:
        return source
    prefix = options.focus + "."
    ops = {n for n, d in source.nodes(data=True)
           if d.get("kind") == "op" and (d.get("module") == options.focus or str(d.get("module", "")).startswith(prefix))}
    if not ops:
        raise RenderError(f"no module {options.focus!r} ran in this recording")
    keep = ops | {p for n in ops for p in source.predecessors(n) if source.nodes[p].get("kind") != "op"}
    return source.subgraph(keep)


def write_export(analysis: Analysis, path: str, fmt: str, options: RenderOptions) -> None:
    """`.graphml` (list attributes as JSON text) or node-link `.json`; `tracer.graph.load_graph` reads both."""
    try:
        write_graph(export_graph(analysis, options), path)
    except OSError as problem:
        raise RenderError(f"cannot write {path}: {problem.strerror or problem}") from None
