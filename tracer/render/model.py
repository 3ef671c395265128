"""The drawing model: what a diagram shows, before any Graphviz syntax.

Building (graph -> drawing) and emitting (drawing -> DOT) are separate steps, so tests can
assert on the drawing's structure and themes only touch the emitter (the weak spot of
torchview is one class doing both). Everything here is plain data with deterministic order:
nodes and clusters keep insertion order, and the builder inserts them in event order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

THEMES = ("light", "dark")
SEVERITY_ORDER = ("error", "warning", "info")
FLAG_HEAD = re.compile(r"^(error|warning|info)\[")  # the first line of a finding's flag: `warning[scale-factor]`


class RenderError(ValueError):
    """A diagram cannot be made as asked (unknown module, bad option, Graphviz missing).

    The CLI prints its message as one line and exits 2.
    """


@dataclass(frozen=True)
class RenderOptions:
    """Every knob of `render`, shared by the CLI flags and `Trace.render(path, **options)`.

    depth: module levels opened below the drawn root (0 = only the root's own ops, each
        child module one box); None opens every level.
    focus: dotted module path whose inside is drawn instead of the whole model.
    attention: draw each attention block in the course's canonical form instead of the graph.
    all_ops: no folding of bookkeeping ops, dead ends or head splits; parameters as nodes.
    flags: mark ops with findings in red (False: a clean diagram).
    expand: draw repeated identical blocks one by one instead of once with "x N".
    theme: "light" or "dark".
    legend: add the small legend box.
    title: the caption at the top (default: the root module's type).
    witness: outline the ops a witnessed change passed through (each proven finding's divergence path).
    """

    depth: int | None = None
    focus: str | None = None
    attention: bool = False
    all_ops: bool = False
    flags: bool = True
    expand: bool = False
    theme: str = "light"
    legend: bool = True
    title: str | None = None
    witness: bool = False

    def __post_init__(self) -> None:
        if self.depth is not None and (not isinstance(self.depth, int) or self.depth < 0):
            raise RenderError(f"depth must be a whole number >= 0, got {self.depth!r}")
        if self.theme not in THEMES:
            raise RenderError(f"theme must be one of {', '.join(THEMES)}, got {self.theme!r}")

    @classmethod
    def of(cls, **options: object) -> "RenderOptions":
        """Options from keywords; `no_flags=True` is accepted as the CLI spells it."""
        if "no_flags" in options:
            options["flags"] = not options.pop("no_flags")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown render option(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        return cls(**options)  # type: ignore[arg-type]


@dataclass
class DrawNode:
    """One box on the page: an op, a folded group of ops, a collapsed module, or a source.

    kind: op | group | mask | module | input | buffer | external | param | output | boundary
    title: the bold first line; lines: details under it; params: an inline band listing the
    parameters the op reads (drawn in the parameter colour); flags: finding lines (red for an
    error, amber for a warning); hidden_severity: the worst severity among the findings a
    collapsed module's flag lines count.
    """

    id: str
    kind: str
    title: str
    lines: list[str] = field(default_factory=list)
    params: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    cluster: str | None = None
    tooltip: str = ""
    repeat: int = 1
    dashed: bool = False
    diverged: bool = False  # a witnessed change moved this op's protected values (render --witness)
    hidden_severity: str = ""

    @property
    def flagged(self) -> bool:
        return bool(self.flags)

    @property
    def flag_severity(self) -> str:
        """The worst severity of the findings the box shows ("error", "warning", "info"); "" for none."""
        found = {head.group(1) for line in self.flags if (head := FLAG_HEAD.match(line))}
        found.discard("")
        if self.hidden_severity:
            found.add(self.hidden_severity)
        if not self.flags:
            return ""
        return next((severity for severity in SEVERITY_ORDER if severity in found), "error")


@dataclass
class DrawEdge:
    """A value handed from one box to another, labelled with its axes and sizes."""

    tail: str
    head: str
    label: str = ""
    torn: bool = False  # the value carries a mixed axis ("?"): a reshape tore two axes
    dashed: bool = False


@dataclass
class Cluster:
    """A module drawn open: a framed region labelled with its dotted path and type."""

    id: str
    label: str
    parent: str | None
    repeat: int = 1


@dataclass
class Drawing:
    """A whole diagram: nodes, edges and nested clusters, plus what the legend should explain."""

    title: str
    nodes: dict[str, DrawNode] = field(default_factory=dict)
    edges: list[DrawEdge] = field(default_factory=list)
    clusters: dict[str, Cluster] = field(default_factory=dict)
    axis_names: dict[str, str] = field(default_factory=dict)  # display name -> what it means
    rows: list[tuple[str, ...]] = field(default_factory=list)  # boxes kept on one rank, left to right
    _edge_keys: set[tuple[str, str, str]] = field(default_factory=set, repr=False)

    def add(self, node: DrawNode) -> DrawNode:
        self.nodes.setdefault(node.id, node)
        return self.nodes[node.id]

    def connect(self, tail: str, head: str, label: str = "", torn: bool = False, dashed: bool = False) -> None:
        """Add an edge unless the same (tail, head, label) is already drawn."""
        if tail == head or (tail, head, label) in self._edge_keys:
            return
        self._edge_keys.add((tail, head, label))
        self.edges.append(DrawEdge(tail, head, label, torn, dashed))

    def kinds(self) -> set[str]:
        return {node.kind for node in self.nodes.values()}
