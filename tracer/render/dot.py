"""Drawing model -> Graphviz DOT source: colours, fonts, HTML-like labels, nested frames, legend.

Only this module knows Graphviz syntax. Output is deterministic: nodes, frames and edges are
written in the drawing's (event) order, ids are the graph's readable node ids, and nothing
depends on object addresses or time, so the same model gives byte-identical DOT and SVG.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Callable
from html import escape

import graphviz

from .model import FLAG_HEAD, DrawEdge, Drawing, DrawNode

FONT = "Helvetica,Arial,sans-serif"


@dataclass(frozen=True)
class Theme:
    background: str
    text: str
    dim: str
    edge: str
    frame: str
    frame_fill: tuple[str, str]  # alternating by nesting level
    accent: str
    fills: dict[str, tuple[str, str]]  # node kind -> (fill, border)
    band: str  # parameter band
    flag_fill: str
    flag_border: str
    flag_text: str
    witness: str  # the border of an op a witnessed change passed (render --witness)
    warn_fill: str = ""  # a box whose worst finding is a warning: amber, not an error's red
    warn_border: str = ""
    warn_text: str = ""

    def flag_colours(self, severity: str) -> tuple[str, str, str]:
        """(fill, border, text) of a box flagged with findings of `severity` at worst."""
        if severity in ("warning", "info") and self.warn_border:
            return self.warn_fill, self.warn_border, self.warn_text
        return self.flag_fill, self.flag_border, self.flag_text


LIGHT = Theme(
    background="#ffffff", text="#1f2328", dim="#57606a", edge="#6e7781", frame="#afb8c1",
    frame_fill=("#f6f8fa", "#ffffff"), accent="#0969da",
    fills={
        "op": ("#ffffff", "#8c959f"), "group": ("#ddf4ff", "#54aeff"), "mask": ("#fbefff", "#c297ff"),
        "module": ("#eaeef2", "#6e7781"), "input": ("#dafbe1", "#4ac26b"), "external": ("#fff1e5", "#fb8f44"),
        "param": ("#f6f8fa", "#afb8c1"), "buffer": ("#f6f8fa", "#afb8c1"), "output": ("#eaeef2", "#57606a"),
        "boundary": ("#fff8c5", "#d4a72c"),
    },
    band="#eaeef2", flag_fill="#ffebe9", flag_border="#cf222e", flag_text="#a40e26", witness="#bc4c00",
    warn_fill="#fff8c5", warn_border="#9a6700", warn_text="#7d4e00",
)
DARK = Theme(
    background="#0d1117", text="#e6edf3", dim="#9198a1", edge="#8b949e", frame="#3d444d",
    frame_fill=("#151b23", "#0d1117"), accent="#4493f8",
    fills={
        "op": ("#161b22", "#8b949e"), "group": ("#0c2d6b", "#388bfd"), "mask": ("#271052", "#a371f7"),
        "module": ("#262c36", "#8b949e"), "input": ("#033a16", "#3fb950"), "external": ("#3d1d00", "#db6d28"),
        "param": ("#161b22", "#3d444d"), "buffer": ("#161b22", "#3d444d"), "output": ("#262c36", "#9198a1"),
        "boundary": ("#3d2e00", "#bb8009"),
    },
    band="#262c36", flag_fill="#3c0b0b", flag_border="#f85149", flag_text="#ffa198", witness="#f0883e",
    warn_fill="#2e2300", warn_border="#d29922", warn_text="#e3b341",
)
THEMES = {"light": LIGHT, "dark": DARK}

LEGEND_TEXT = {
    "input": "input tensor", "external": "tensor from outside the model", "op": "op",
    "group": "idiom drawn as one box (head split / merge, softmax)", "mask": "mask applied to scores",
    "module": "collapsed module (its input and output axes)", "param": "parameter",
    "boundary": "outside the focused module",
}


def _html(text: str) -> str:
    return escape(text, quote=True)


def _row(text: str, size: int, color: str, bold: bool = False, bgcolor: str | None = None) -> str:
    body = f"<B>{_html(text)}</B>" if bold else _html(text)
    cell = f' BGCOLOR="{bgcolor}"' if bgcolor else ""
    return f'<TR><TD{cell}><FONT POINT-SIZE="{size}" COLOR="{color}">{body}</FONT></TD></TR>'


def node_label(node: DrawNode, theme: Theme) -> str:
    """An HTML-like label: bold title, detail lines, the parameter band, then the red flag lines."""
    rows = []
    title = node.title + (f"  × {node.repeat}" if node.repeat > 1 else "")
    rows.append(_row(title, 11, theme.accent if node.repeat > 1 else theme.text, bold=True))
    for line in node.lines:
        rows.append(_row(line, 9, theme.dim))
    if node.params:
        for chunk in textwrap.wrap(" · ".join(node.params), 44) or [""]:
            rows.append(_row(chunk, 8, theme.dim, bgcolor=theme.band))
    severity = node.flag_severity
    for position, line in enumerate(node.flags):
        head = FLAG_HEAD.match(line)
        severity = head.group(1) if head else severity  # each finding's lines in its own severity's colour
        rows.append(_row(line, 9, theme.flag_colours(severity)[2], bold=position == 0 or line.endswith("]")))
    return '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">' + "".join(rows) + "</TABLE>>"


def edge_label(text: str, color: str, background: str) -> str:
    """An edge label on an opaque patch, so a frame border or a curving edge never runs through its text."""
    return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLPADDING="1" CELLSPACING="0" BGCOLOR="{background}">'
            f'<TR><TD><FONT POINT-SIZE="9" COLOR="{color}">{_html(text)}</FONT></TD></TR></TABLE>>')


def dot_id(node_id: str) -> str:
    """DOT ids without ':' (the graphviz package reads `a:b` in edges as node a, port b)."""
    return node_id.replace(":", "/")


def _node_attrs(node: DrawNode, theme: Theme) -> dict[str, str]:
    fill, border = theme.fills.get(node.kind, theme.fills["op"])
    style = ["rounded", "filled"] if node.kind != "module" else ["filled"]
    if node.kind in ("boundary", "param", "buffer") or node.dashed:
        style.append("dashed")
    attrs = {
        "label": node_label(node, theme), "shape": "box3d" if node.kind == "module" else "box",
        "style": ",".join(style), "fillcolor": fill, "color": border, "penwidth": "1",
    }
    if node.flagged:
        fill, border, _ = theme.flag_colours(node.flag_severity)
        attrs.update(fillcolor=fill, color=border, penwidth="2.2")
    elif node.diverged:
        attrs.update(color=theme.witness, penwidth="2.2")
    elif node.repeat > 1:
        attrs.update(color=theme.accent, penwidth="1.6")
    if node.tooltip:  # one DOT line per statement: newlines as escString "\n"
        attrs["tooltip"] = node.tooltip.replace("\\", "\\\\").replace("\n", "\\n")
    return attrs


def _legend(drawing: Drawing, theme: Theme) -> str:
    kinds = drawing.kinds()
    rows = []

    def swatch(fill: str, border: str, text: str, text_color: str | None = None) -> None:
        rows.append(
            f'<TR><TD WIDTH="18" HEIGHT="12" BGCOLOR="{fill}" COLOR="{border}" BORDER="1"></TD>'
            f'<TD ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="{text_color or theme.text}">{_html(text)}</FONT></TD></TR>'
        )

    for kind in ("input", "external", "op", "group", "mask", "module", "param", "boundary"):
        if kind in kinds:
            swatch(*theme.fills[kind], LEGEND_TEXT[kind])
    if any(node.params for node in drawing.nodes.values()):
        swatch(theme.band, theme.band, "parameters the op reads")
    severities = {node.flag_severity for node in drawing.nodes.values() if node.flagged}
    if "error" in severities:
        swatch(theme.flag_fill, theme.flag_border, "error finding: error[code] and why", theme.flag_text)
    if severities & {"warning", "info"}:
        fill, border, text = theme.flag_colours("warning")
        swatch(fill, border, "warning finding: warning[code] and why", text)
    if any(node.repeat > 1 for node in drawing.nodes.values()) or any(c.repeat > 1 for c in drawing.clusters.values()):
        swatch(theme.background, theme.accent, "× N: N identical blocks, drawn once")
    if any(node.diverged for node in drawing.nodes.values()):
        swatch(theme.background, theme.witness, "the witnessed change passed here", theme.witness)
    if any(edge.torn for edge in drawing.edges):
        swatch(theme.background, theme.flag_border, "edge with a torn axis (?)", theme.flag_text)
    rows.append(f'<TR><TD COLSPAN="2" ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="{theme.dim}">'
                f'edges: axis=size × … of the value handed on</FONT></TD></TR>')
    for name, meaning in sorted(drawing.axis_names.items()):
        rows.append(
            f'<TR><TD ALIGN="RIGHT"><FONT POINT-SIZE="9" COLOR="{theme.text}"><B>{_html(name)}</B></FONT></TD>'
            f'<TD ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="{theme.dim}">{_html(meaning)}</FONT></TD></TR>'
        )
    head = f'<TR><TD COLSPAN="2" ALIGN="LEFT"><FONT POINT-SIZE="10" COLOR="{theme.text}"><B>legend</B></FONT></TD></TR>'
    return ('<<TABLE BORDER="1" COLOR="' + theme.frame + '" CELLBORDER="0" CELLSPACING="3" CELLPADDING="1">'
            + head + "".join(rows) + "</TABLE>>")


def _label_backgrounds(drawing: Drawing, theme: Theme) -> Callable[[DrawEdge], str]:
    """The fill behind an edge's label: that of the innermost frame holding both ends."""
    parents = {c.id: c.parent for c in drawing.clusters.values()}

    def frames(node_id: str) -> list[str]:
        found: list[str] = []
        frame = drawing.nodes[node_id].cluster if node_id in drawing.nodes else None
        while frame is not None:
            found.append(frame)
            frame = parents.get(frame)
        return found

    def background(edge: DrawEdge) -> str:
        tails, heads = frames(edge.tail), frames(edge.head)
        depth = next((len(tails) - i for i, frame in enumerate(tails) if frame in heads), 0)
        return theme.frame_fill[(depth - 1) % 2] if depth else theme.background

    return background


def title_id(cluster_id: str) -> str:
    return "title/" + dot_id(cluster_id)


def _title_edges(graph: graphviz.Digraph, drawing: Drawing, members: dict[str | None, list[DrawNode]],
                 children: dict[str | None, list[str]]) -> None:
    """Pin each frame's title above the boxes that enter the frame.

    A frame's name is a node (not a cluster label) because Graphviz routes edges around
    nodes but straight through cluster labels: an edge entering a frame would cross its
    name. Invisible edges put the title one rank above the frame's entry boxes.
    """
    parents = {c.id: c.parent for c in drawing.clusters.values()}

    def inside(node_id: str, cluster_id: str) -> bool:
        frame = drawing.nodes[node_id].cluster if node_id in drawing.nodes else None
        while frame is not None and frame != cluster_id:
            frame = parents.get(frame)
        return frame == cluster_id

    feeders: dict[str, list[str]] = {}
    for edge in drawing.edges:
        feeders.setdefault(edge.head, []).append(edge.tail)
    for cluster_id in drawing.clusters:
        title = title_id(cluster_id)
        for node in members.get(cluster_id, []):
            if not any(inside(tail, cluster_id) for tail in feeders.get(node.id, [])):
                graph.edge(title, dot_id(node.id), style="invis", weight="3")
        for child in children.get(cluster_id, []):
            graph.edge(title, title_id(child), style="invis", weight="1")


def to_digraph(drawing: Drawing, theme_name: str = "light", legend: bool = True) -> graphviz.Digraph:
    """The Graphviz graph of `drawing`, laid out top to bottom."""
    theme = THEMES[theme_name]
    graph = graphviz.Digraph("attnscope")
    graph.attr(
        rankdir="TB", bgcolor=theme.background, fontname=FONT, fontcolor=theme.text, pad="0.3",
        nodesep="0.25", ranksep="0.32", labelloc="t", labeljust="l", outputorder="edgesfirst",
        label=f'<<FONT POINT-SIZE="15"><B>{_html(drawing.title)}</B></FONT>>',
    )
    graph.attr("node", fontname=FONT, fontcolor=theme.text, margin="0.10,0.05", height="0.3")
    graph.attr("edge", fontname=FONT, fontsize="9", color=theme.edge, fontcolor=theme.dim, arrowsize="0.6")
    members: dict[str | None, list[DrawNode]] = {}
    for node in drawing.nodes.values():
        members.setdefault(node.cluster, []).append(node)
    children: dict[str | None, list[str]] = {}
    for cluster in drawing.clusters.values():
        children.setdefault(cluster.parent, []).append(cluster.id)

    def fill(target: graphviz.Digraph, cluster_id: str | None, level: int) -> None:
        for node in members.get(cluster_id, []):
            target.node(dot_id(node.id), **_node_attrs(node, theme))
        for number, row in enumerate(r for r in drawing.rows if drawing.nodes[r[0]].cluster == cluster_id):
            with target.subgraph(name=f"row{number}:{dot_id(cluster_id or '')}") as same:
                same.attr(rank="same")
                for left, right in zip(row, row[1:]):
                    same.edge(dot_id(left), dot_id(right), style="invis")
        for child_id in children.get(cluster_id, []):
            cluster = drawing.clusters[child_id]
            with target.subgraph(name=dot_id(child_id)) as sub:
                sub.attr(
                    label="", style="rounded,filled", fillcolor=theme.frame_fill[level % 2],
                    color=theme.accent if cluster.repeat > 1 else theme.frame,
                    penwidth="1.8" if cluster.repeat > 1 else "1",
                    margin="14",  # room for edge labels, which Graphviz leaves out of a frame's size
                )
                badge = f'  <FONT COLOR="{theme.accent}"><B>× {cluster.repeat}</B></FONT>' if cluster.repeat > 1 else ""
                sub.node(title_id(child_id), shape="plain",
                         label=f'<<FONT POINT-SIZE="10" COLOR="{theme.dim}">{_html(cluster.label)}</FONT>{badge}>')
                fill(sub, child_id, level + 1)

    fill(graph, None, 0)
    _title_edges(graph, drawing, members, children)
    patch = _label_backgrounds(drawing, theme)
    for edge in drawing.edges:
        attrs = {}
        if edge.label:
            attrs["label"] = edge_label(edge.label, theme.flag_text if edge.torn else theme.dim, patch(edge))
        if edge.torn:
            attrs.update(color=theme.flag_border)
        if edge.dashed:
            attrs["style"] = "dashed"
        graph.edge(dot_id(edge.tail), dot_id(edge.head), **attrs)
    if legend:
        graph.node("legend", label=_legend(drawing, theme), shape="plain")
        # Invisible edges from every last box keep the legend under the diagram (rank=sink
        # does not hold once clusters are present, and a tall legend would stretch the top rank).
        tails = {edge.tail for edge in drawing.edges}
        for node in drawing.nodes.values():
            if node.id not in tails:
                graph.edge(dot_id(node.id), "legend", style="invis")
    return graph
