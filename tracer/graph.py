"""The recording as a networkx graph: one node per op or source, one edge per value handed on.

Node ids are readable and stable, like torch.fx's: `softmax`, `softmax_1`, `input:x`,
`param:layers.0.attn.w_q.weight`. Module nesting is a node attribute, so every view of
the graph (per module, per depth) is a query, not a new recording.

With an analysis the graph carries what attnscope knows and other tools do not: every value
edge has `axes`, a list of `(name, role)` pairs (roles from `tracer.vocabulary.ROLES`), every
op node the codes of the findings drawn on it (`findings`) and, for a softmax, norm or
reduction, the axes it works over (`over`). GraphML holds no lists, so `write_graph` stores
those attributes as JSON text and `load_graph` turns them back into lists and tuples.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from .events import Recording, TensorMeta

if TYPE_CHECKING:
    import networkx as nx

    from .analysis import Analysis
    from .findings import Finding

OUTPUT_NODE = "output"
# Attributes whose values are lists or tuples: JSON text in GraphML (see docs/graph.md).
LIST_ATTRIBUTES = ("shape", "axes", "findings", "over")


def source_node_id(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def op_node_ids(recording: Recording) -> list[str]:
    """Node id of every event, by event index: the op name, numbered from its second use."""
    seen: Counter[str] = Counter()
    ids = []
    for event in recording.events:
        count = seen[event.op]
        ids.append(event.op if count == 0 else f"{event.op}_{count}")
        seen[event.op] += 1
    return ids


def findings_by_event(analysis: "Analysis") -> dict[int, list["Finding"]]:
    """Event index -> the findings that concern it, in the analysis's order.

    Findings are merged per source line and module type (one finding for twelve layers),
    but the graph, a diagram and the TUI mark every op that has the problem: a merged
    finding is spread back onto every event with the same op, line and module type.
    """
    events = analysis.recording.events
    types = analysis.module_types()
    by_site: dict[tuple, list[int]] = defaultdict(list)
    for event in events:
        by_site[(event.op, event.file, event.line, types.get(event.module, event.module))].append(event.index)
    result: dict[int, list[Finding]] = {}
    for finding in analysis.findings:
        if finding.event is None or not 0 <= finding.event < len(events):
            continue
        hits = [finding.event]
        if finding.count > 1:
            first = events[finding.event]
            hits = by_site.get((first.op, first.file, first.line, types.get(first.module, first.module)), hits)
        for index in hits:
            listed = result.setdefault(index, [])
            if finding not in listed:
                listed.append(finding)
    return result


def build_graph(recording: Recording, analysis: "Analysis | None" = None) -> nx.MultiDiGraph:
    """The data-flow graph of `recording`; node `event` attributes index `recording.events`.

    Given the recording's `analysis`, edges get `axes`, op nodes `findings` and `over`.
    """
    import networkx as nx  # here, not at the top: checking a model never builds the graph (0.4 s to import)

    graph = nx.MultiDiGraph(root=recording.root_type, forward_passes=recording.forward_passes)
    flagged = findings_by_event(analysis) if analysis is not None else {}

    def edge(meta: TensorMeta, position: int) -> dict[str, Any]:
        attrs: dict[str, Any] = {"vid": meta.vid, "shape": meta.shape, "dtype": meta.dtype, "position": position}
        if analysis is not None:
            attrs["axes"] = analysis.named_axes(meta)
        return attrs

    producer: dict[int, str] = {}
    for vid, source in sorted(recording.sources.items()):
        node = source_node_id(source.kind, source.name)
        graph.add_node(node, kind=source.kind, name=source.name, shape=source.meta.shape, dtype=source.meta.dtype)
        producer[vid] = node
    for node, event in zip(op_node_ids(recording), recording.events):
        graph.add_node(
            node, kind="op", op=event.op, event=event.index, module=event.module,
            file=event.file, line=event.line, error=event.error,
        )
        if analysis is not None:
            attrs = graph.nodes[node]
            attrs["findings"] = list(dict.fromkeys(f.code for f in flagged.get(event.index, ())))
            attrs["over"] = _worked_over(analysis, event.index)
        for position, meta in enumerate(event.inputs):
            if meta.vid in producer:
                graph.add_edge(producer[meta.vid], node, key=position, **edge(meta, position))
        for meta in event.outputs:
            producer[meta.vid] = node
    if recording.outputs:
        graph.add_node(OUTPUT_NODE, kind="output")
        for position, meta in enumerate(recording.outputs):
            if meta.vid in producer:
                graph.add_edge(producer[meta.vid], OUTPUT_NODE, key=position, **edge(meta, position))
    return graph


def _worked_over(analysis: "Analysis", index: int) -> list[tuple[str, str]]:
    """The `(name, role)` of each axis a softmax, norm or reduction works over; [] for other ops."""
    facts = analysis.facts.get(index)
    event = analysis.recording.events[index]
    if facts is None or not facts.normalized or not event.inputs:
        return []
    pairs = analysis.named_axes(event.inputs[0])
    return [pairs[dim] for dim in facts.normalized if 0 <= dim < len(pairs)]


# ------------------------------------------------------------------ files
def _encoded(value: Any) -> Any:
    """A list or tuple as JSON text (GraphML's values are scalars); None is left out by the caller."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, tuple)) else value


def _decoded(name: str, value: Any) -> Any:
    """The inverse of `_encoded` for the attributes in `LIST_ATTRIBUTES`."""
    if name not in LIST_ATTRIBUTES:
        return value
    if isinstance(value, str):
        value = json.loads(value)
    if name == "shape":
        return tuple(value)
    if name in ("axes", "over"):
        return [tuple(pair) for pair in value]
    return list(value)


def plain_graph(graph: nx.MultiDiGraph, lists_as_text: bool) -> nx.MultiDiGraph:
    """A copy without None values; lists and tuples as JSON text when `lists_as_text` (GraphML)."""
    import networkx as nx

    keep = (lambda value: _encoded(value)) if lists_as_text else (lambda value: value)
    plain = nx.MultiDiGraph(**{k: keep(v) for k, v in graph.graph.items() if v is not None})
    for node, data in graph.nodes(data=True):
        plain.add_node(node, **{k: keep(v) for k, v in data.items() if v is not None})
    for tail, head, key, data in graph.edges(keys=True, data=True):
        plain.add_edge(tail, head, key=key, **{k: keep(v) for k, v in data.items() if v is not None})
    return plain


def write_graph(graph: nx.MultiDiGraph, path: str | os.PathLike[str]) -> None:
    """Write `graph` as GraphML (`.graphml`) or networkx node-link JSON (any other suffix)."""
    import networkx as nx

    path = os.fspath(path)
    if path.lower().endswith(".graphml"):
        nx.write_graphml(plain_graph(graph, lists_as_text=True), path)
        return
    data = nx.node_link_data(plain_graph(graph, lists_as_text=False), edges="edges")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def load_graph(path: str | os.PathLike[str]) -> nx.MultiDiGraph:
    """Read a graph written by `write_graph` (or `attnscope render -o g.graphml|g.json`).

    The list attributes come back as they were in `t.graph`: `shape` a tuple, `axes` and
    `over` lists of `(name, role)` tuples, `findings` a list of codes.
    """
    import networkx as nx

    path = os.fspath(path)
    if path.lower().endswith(".graphml"):
        read = nx.read_graphml(path, force_multigraph=True)
        graph = read if isinstance(read, nx.MultiDiGraph) else nx.MultiDiGraph(read)
        for reader_only in ("node_default", "edge_default"):  # GraphML's, not ours
            graph.graph.pop(reader_only, None)
    else:
        with open(path, encoding="utf-8") as handle:
            graph = nx.node_link_graph(json.load(handle), directed=True, multigraph=True, edges="edges")
    for _, data in graph.nodes(data=True):
        data.update({name: _decoded(name, value) for name, value in data.items()})
    for *_, data in graph.edges(data=True):
        data.update({name: _decoded(name, value) for name, value in data.items()})
    return graph
