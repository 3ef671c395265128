"""The recording as a networkx graph: one node per op or source, one edge per value handed on.

Node ids are readable and stable, like torch.fx's: `softmax`, `softmax_1`, `input:x`,
`param:layers.0.attn.w_q.weight`. Module nesting is a node attribute, so every view of
the graph (per module, per depth) is a query, not a new recording.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .events import Recording, TensorMeta

if TYPE_CHECKING:
    import networkx as nx

OUTPUT_NODE = "output"


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


def _edge_attrs(meta: TensorMeta, position: int) -> dict:
    return {"vid": meta.vid, "shape": meta.shape, "dtype": meta.dtype, "position": position}


def build_graph(recording: Recording) -> nx.MultiDiGraph:
    """Build the data-flow graph of `recording`; node `event` attributes index `recording.events`."""
    import networkx as nx  # only here: checking a model never needs it, and it takes 0.4 s to import

    graph = nx.MultiDiGraph(root=recording.root_type, forward_passes=recording.forward_passes)
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
        for position, meta in enumerate(event.inputs):
            if meta.vid in producer:
                graph.add_edge(producer[meta.vid], node, key=position, **_edge_attrs(meta, position))
        for meta in event.outputs:
            producer[meta.vid] = node
    if recording.outputs:
        graph.add_node(OUTPUT_NODE, kind="output")
        for position, meta in enumerate(recording.outputs):
            if meta.vid in producer:
                graph.add_edge(producer[meta.vid], OUTPUT_NODE, key=position, **_edge_attrs(meta, position))
    return graph
