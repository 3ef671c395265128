"""The graph carries meaning (CONTRACT.md, Python API): `(name, role)` axes on every value edge,
`op, file, line, module, findings` on every op node, and both survive GraphML and JSON files
and a saved recording.
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

import tracer
from tracer.commands.common import trace_target
from tracer.graph import load_graph
from tracer.render import render_to_file
from tracer.targets import isolated
from tracer.vocabulary import ROLES

SCORES = [("B", "batch"), ("H", "heads"), ("Tq", "query"), ("Tk", "key")]


def traced(spec: str) -> tracer.Trace:
    with isolated():
        return trace_target(spec)[1]


@pytest.fixture(scope="module")
def query_softmax() -> tracer.Trace:
    """zoo:softmax_axis_query: a softmax over the query axis of a (B, H, Tq, Tk) score table."""
    return traced("zoo:softmax_axis_query")


def present(data: dict) -> dict:
    return {name: value for name, value in data.items() if value is not None}


def test_op_nodes_have_op_file_line_module_and_finding_codes(query_softmax: tracer.Trace) -> None:
    graph, events = query_softmax.graph, query_softmax.recording.events
    ops = [data for _, data in graph.nodes(data=True) if data["kind"] == "op"]
    assert len(ops) == len(events)
    for data in ops:
        event = events[data["event"]]
        assert (data["op"], data["file"], data["line"], data["module"]) == (event.op, event.file, event.line, event.module)
        assert isinstance(data["findings"], list)
    flagged = {node: data["findings"] for node, data in graph.nodes(data=True) if data.get("findings")}
    assert flagged == {"softmax": ["softmax-axis"]}
    [finding] = query_softmax.findings
    assert finding.node == "softmax" and graph.nodes["softmax"]["line"] == finding.line


def test_value_edges_have_shape_dtype_and_named_axes(query_softmax: tracer.Trace) -> None:
    graph = query_softmax.graph
    for tail, head, data in graph.edges(data=True):
        assert len(data["axes"]) == len(data["shape"]), (tail, head)
        assert all(isinstance(name, str) and role in ROLES for name, role in data["axes"]), data["axes"]
        assert data["dtype"] == "float32"
    into_softmax = [data for *_, data in graph.in_edges("softmax", data=True)]
    assert [data["axes"] for data in into_softmax] == [SCORES]
    assert [data["shape"] for data in into_softmax] == [(2, 2, 5, 5)]
    assert graph.nodes["softmax"]["over"] == [("Tq", "query")]


def test_softmax_query_of_the_docs_finds_only_the_wrong_axis(query_softmax: tracer.Trace) -> None:
    """docs/graph.md's plain networkx query: every softmax whose normalized axis is not a key axis."""
    def suspicious(graph: nx.MultiDiGraph) -> list[str]:
        return [node for node, data in graph.nodes(data=True)
                if data.get("op") == "softmax" and not any(role == "key" for _, role in data["over"])]

    assert suspicious(query_softmax.graph) == ["softmax"]
    for spec in ("zoo:ok_einsum_causal", "zoo:ok_cross_attention"):
        correct = traced(spec).graph
        softmaxes = [node for node, data in correct.nodes(data=True) if data.get("op") == "softmax"]
        assert softmaxes and suspicious(correct) == [], spec
    reference = traced("zoo:ref_encoder_postnorm").graph
    normalized = [data["over"] for _, data in reference.nodes(data=True) if data.get("op") in ("softmax", "sum")
                  and any(role == "key" for _, role in data["over"])]
    assert normalized, "the reference encoder's hand-written softmax sums over the key axis"


def test_one_cached_graph_serves_the_trace_and_its_analysis(query_softmax: tracer.Trace) -> None:
    assert query_softmax.graph is query_softmax.analysis.graph
    assert query_softmax.graph is query_softmax.graph


@pytest.mark.parametrize("suffix", [".graphml", ".json"])
def test_exported_files_load_back_with_every_attribute(query_softmax: tracer.Trace, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"graph{suffix}"
    render_to_file(query_softmax, path)
    loaded, original = load_graph(path), query_softmax.graph
    assert set(loaded.nodes) == set(original.nodes)
    for node, data in original.nodes(data=True):
        assert loaded.nodes[node] == present(data), node
    assert sorted(loaded.edges(keys=True)) == sorted(original.edges(keys=True))
    for tail, head, key, data in original.edges(keys=True, data=True):
        assert loaded.edges[tail, head, key] == present(data)
    assert loaded.graph == {"root": "SelfAttention", "forward_passes": 1}


def test_graphml_stores_lists_as_json_text(query_softmax: tracer.Trace, tmp_path: Path) -> None:
    """What another tool reading the GraphML sees: the documented encoding, not Python reprs."""
    path = tmp_path / "graph.graphml"
    render_to_file(query_softmax, path)
    raw = nx.read_graphml(path)
    assert json.loads(raw.nodes["softmax"]["findings"]) == ["softmax-axis"]
    [scores] = [data for _, _, data in raw.in_edges("softmax", data=True)]
    assert json.loads(scores["axes"]) == [list(pair) for pair in SCORES]
    assert json.loads(scores["shape"]) == [2, 2, 5, 5]


def test_focus_export_keeps_the_module_and_its_sources(tmp_path: Path) -> None:
    trace = traced("zoo:ref_encoder_postnorm")
    path = tmp_path / "attention.graphml"
    render_to_file(trace, path, focus="layers.0.self_attn")
    loaded = load_graph(path)
    modules = {data["module"] for _, data in loaded.nodes(data=True) if data["kind"] == "op"}
    assert modules and all(module.startswith("layers.0.self_attn") for module in modules)
    assert any(role == "key" for *_, data in loaded.edges(data=True) for _, role in data["axes"])


def test_a_loaded_recording_has_the_same_graph(query_softmax: tracer.Trace, tmp_path: Path) -> None:
    path = tmp_path / "run.attntrace"
    query_softmax.save(str(path))
    loaded = tracer.load(str(path))
    assert dict(loaded.graph.nodes(data=True)) == dict(query_softmax.graph.nodes(data=True))
    assert list(loaded.graph.edges(keys=True, data=True)) == list(query_softmax.graph.edges(keys=True, data=True))
