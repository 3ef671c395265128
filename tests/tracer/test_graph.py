"""The graph (DESIGN.md room 3): `t.graph` is a networkx.MultiDiGraph with one node per
recorded op, source nodes for inputs / parameters / buffers, an output node, and one edge
per tensor handed on, carrying its shape and dtype.

Shapes are derived from the models' configuration; source lines are found in the models'
source text, never written down by hand.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import networkx as nx
import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tracer
from models.reference import EncoderDecoderTransformer, EncoderLayer, SinusoidalPositionalEncoding
from models.reference import attention as reference_attention

VOCAB, MAX_LEN = 20, 16
B, T, D, H, D_FF = 2, 5, 8, 2, 16
DH = D // H


class Encoder(nn.Module):
    """Token ids -> embedding + sinusoidal positions -> one reference encoder layer."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, D)
        self.positions = SinusoidalPositionalEncoding(MAX_LEN, D)
        self.layer = EncoderLayer(D, H, D_FF)

    def forward(self, tokens: torch.Tensor, padding: torch.Tensor) -> torch.Tensor:
        return self.layer(self.positions(self.embedding(tokens)), padding)


@pytest.fixture(scope="module")
def encoder_trace():
    torch.manual_seed(0)
    model = Encoder().eval()
    tokens = torch.randint(1, VOCAB, (B, T))
    padding = torch.zeros(B, T, dtype=torch.bool)
    padding[1, -2:] = True
    with tracer.trace(model) as t:
        out = model(tokens, padding)
    return model, t, out


def op_nodes(graph: nx.MultiDiGraph) -> list[str]:
    return [node for node, data in graph.nodes(data=True) if data["kind"] == "op"]


def chains(graph: nx.MultiDiGraph, ops: list[str], end: str | None = None) -> list[list[str]]:
    """Every node path, one edge per step, whose nodes' ops spell `ops` (ending at `end` if given)."""
    def extend(path: list[str]):
        if len(path) == len(ops):
            if end is None or path[-1] == end:
                yield path
            return
        for successor in graph.successors(path[-1]):
            if graph.nodes[successor].get("op") == ops[len(path)]:
                yield from extend(path + [successor])

    starts = [node for node, data in graph.nodes(data=True) if data.get("op") == ops[0]]
    return [path for start in starts for path in extend([start])]


def edge_shapes(graph: nx.MultiDiGraph, path: list[str]) -> list[tuple[int, ...]]:
    """The shape on each edge of `path` (the one tensor handed from each node to the next)."""
    shapes = []
    for u, v in zip(path, path[1:]):
        found = {data["shape"] for data in graph.get_edge_data(u, v).values()}
        assert len(found) == 1, (u, v, found)
        shapes.append(found.pop())
    return shapes


def line_in(module, text: str) -> int:
    lines = inspect.getsource(module).splitlines()
    matches = [number for number, line in enumerate(lines, 1) if text in line]
    assert len(matches) == 1, (text, matches)
    return matches[0]


# --------------------------------------------------------------------------- nodes and edges
def test_graph_is_a_multidigraph_with_one_node_per_op(encoder_trace) -> None:
    _, t, _ = encoder_trace
    graph, events = t.graph, t.recording.events
    assert isinstance(graph, nx.MultiDiGraph)
    assert nx.is_directed_acyclic_graph(graph)
    ops = op_nodes(graph)
    assert len(ops) == len(events)
    assert sorted(graph.nodes[node]["event"] for node in ops) == list(range(len(events)))
    for node in ops:
        data = graph.nodes[node]
        event = events[data["event"]]
        assert data["op"] == event.op
        assert data["module"] == event.module
        assert (data["file"], data["line"]) == (event.file, event.line)
        # Readable ids: the op's name, numbered from its second use, like torch.fx.
        earlier = sum(e.op == event.op for e in events[:event.index])
        assert node == (event.op if earlier == 0 else f"{event.op}_{earlier}")


def test_every_input_of_every_op_is_an_edge_with_its_shape_and_dtype(encoder_trace) -> None:
    _, t, _ = encoder_trace
    graph = t.graph
    for node in op_nodes(graph):
        event = t.recording.events[graph.nodes[node]["event"]]
        incoming = sorted((data["position"], data["vid"], data["shape"], data["dtype"])
                          for _, _, data in graph.in_edges(node, data=True))
        expected = [(position, meta.vid, meta.shape, meta.dtype) for position, meta in enumerate(event.inputs)]
        assert incoming == expected, node
    assert graph.number_of_edges() == sum(len(e.inputs) for e in t.recording.events) + len(t.recording.outputs)


def test_sources_and_output_are_distinguishable_nodes(encoder_trace) -> None:
    model, t, out = encoder_trace
    graph = t.graph
    kinds = {node: data["kind"] for node, data in graph.nodes(data=True)}
    inputs = {node for node, kind in kinds.items() if kind == "input"}
    params = {node for node, kind in kinds.items() if kind == "param"}
    buffers = {node for node, kind in kinds.items() if kind == "buffer"}
    assert inputs == {"input:tokens", "input:padding"}
    assert params == {f"param:{name}" for name, _ in model.named_parameters()}
    assert buffers == {"buffer:positions.table"}
    assert set(kinds.values()) == {"input", "param", "buffer", "op", "output"}
    for node in inputs | params | buffers:
        assert graph.in_degree(node) == 0 and graph.out_degree(node) >= 1, node
    assert graph.nodes["param:embedding.weight"]["shape"] == (VOCAB, D)
    assert graph.nodes["input:tokens"]["dtype"] == "int64"
    assert [data["dtype"] for *_, data in graph.out_edges("input:padding", data=True)] == ["bool"]
    assert kinds["output"] == "output" and graph.out_degree("output") == 0
    [(last, _, data)] = graph.in_edges("output", data=True)
    assert data["shape"] == tuple(out.shape) == (B, T, D) and data["dtype"] == "float32"
    assert graph.nodes[last]["module"] == "layer.norm2"
    # Every op is reachable from some source, and the output from the tokens.
    sources = inputs | params | buffers
    reachable = set().union(*(nx.descendants(graph, source) for source in sources))
    assert set(op_nodes(graph)) <= reachable
    assert nx.has_path(graph, "input:tokens", "output") and nx.has_path(graph, "input:padding", "output")
    assert nx.has_path(graph, "param:layer.self_attn.w_q.weight", "output")


# --------------------------------------------------------------------------- structure of attention
def test_reference_encoder_attention_path(encoder_trace) -> None:
    _, t, _ = encoder_trace
    graph = t.graph
    # The reference attention: q @ k^T / sqrt(d_k), masked_fill with -inf, a hand-written
    # softmax (x - row max, exp, / row sum), then weights @ v.
    query_side = ["embedding", "add", "linear", "view", "transpose", "matmul", "div", "masked_fill",
                  "sub", "exp", "div", "matmul"]
    [path] = chains(graph, query_side)
    assert nx.is_path(graph, path)
    scores, weights_by_value = path[5], path[-1]
    assert edge_shapes(graph, path) == [
        (B, T, D), (B, T, D), (B, T, D), (B, T, H, DH), (B, H, T, DH), (B, H, T, T), (B, H, T, T),
        (B, H, T, T), (B, H, T, T), (B, H, T, T), (B, H, T, T),
    ]
    assert graph.nodes[path[2]]["module"] == "layer.self_attn.w_q"
    assert {graph.nodes[node]["module"] for node in path[3:]} == {"layer.self_attn"}
    # The keys reach the score matmul through one more transpose, as its second operand.
    [key_path] = chains(graph, ["embedding", "add", "linear", "view", "transpose", "transpose", "matmul"], end=scores)
    assert graph.nodes[key_path[2]]["module"] == "layer.self_attn.w_k"
    assert edge_shapes(graph, key_path)[-1] == (B, H, DH, T)
    assert [data["position"] for data in graph.get_edge_data(key_path[-2], scores).values()] == [1]
    assert [data["position"] for data in graph.get_edge_data(path[4], scores).values()] == [0]
    # The values reach the second matmul directly, as its second operand.
    [value_path] = chains(graph, ["embedding", "add", "linear", "view", "transpose", "matmul"], end=weights_by_value)
    assert graph.nodes[value_path[2]]["module"] == "layer.self_attn.w_v"
    assert [data["position"] for data in graph.get_edge_data(value_path[-2], weights_by_value).values()] == [1]
    # The mask comes from the padding input; the row sum normalizes the exp it divides.
    fill = path[7]
    assert nx.has_path(graph, "input:padding", fill)
    assert not nx.has_path(graph, "input:padding", scores)
    [exp] = [node for node in path if graph.nodes[node]["op"] == "exp"]
    row_sum = [node for node in graph.successors(exp) if graph.nodes[node]["op"] == "sum"]
    assert len(row_sum) == 1 and graph.has_edge(row_sum[0], path[10])
    assert edge_shapes(graph, [row_sum[0], path[10]]) == [(B, H, T, 1)]
    # Then the heads merge back to (B, T, d) before the output projection.
    [merge] = chains(graph, ["matmul", "transpose", "reshape", "linear"])
    assert merge[0] == weights_by_value
    assert edge_shapes(graph, merge) == [(B, H, T, DH), (B, T, H, DH), (B, T, D)]
    assert graph.nodes[merge[-1]]["module"] == "layer.self_attn.w_o"


def test_nodes_carry_the_models_source_lines(encoder_trace) -> None:
    _, t, _ = encoder_trace
    graph = t.graph
    attention_file = Path(inspect.getsourcefile(reference_attention)).resolve()
    [path] = chains(graph, ["linear", "view", "transpose", "matmul", "div", "masked_fill"])
    linear, scores = graph.nodes[path[0]], graph.nodes[path[3]]
    for node in (linear, scores):
        assert Path(node["file"]).resolve() == attention_file
    # F.linear runs inside torch's nn.Linear: the line is the model's call of self.w_q.
    assert linear["line"] == line_in(reference_attention, "q = self.split_heads(self.w_q(x_q))")
    assert scores["line"] == line_in(reference_attention, "scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)")
    embedding = graph.nodes["embedding"]
    assert Path(embedding["file"]).resolve() == Path(__file__).resolve()
    assert embedding["module"] == "embedding"


def test_module_views_are_queries_on_node_attributes(encoder_trace) -> None:
    _, t, _ = encoder_trace
    graph = t.graph
    attention = graph.subgraph(n for n, d in graph.nodes(data=True) if d.get("module", "").startswith("layer.self_attn"))
    ops = sorted(d["op"] for _, d in attention.nodes(data=True))
    assert ops.count("matmul") == 2 and ops.count("linear") == 4 and ops.count("exp") == 1
    assert nx.is_weakly_connected(attention)
    calls = [c for c in t.recording.module_calls if c.path == "layer.self_attn"]
    assert len(calls) == 1
    assert attention.number_of_nodes() == calls[0].end_event - calls[0].first_event


# --------------------------------------------------------------------------- other shapes of graph
class TwoSoftmaxes(nn.Module):
    def forward(self, scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        scores = scores * 2.0
        scores.masked_fill_(mask, float("-inf"))
        return F.softmax(scores, dim=-1) + scores.softmax(-1)


def test_readable_ids_and_in_place_ops_redirect_edges() -> None:
    model = TwoSoftmaxes()
    mask = torch.ones(3, 3, dtype=torch.bool).triu(1)
    with tracer.trace(model) as t:
        model(torch.randn(3, 3), mask)
    graph = t.graph
    assert op_nodes(graph) == ["mul", "masked_fill", "softmax", "softmax_1", "add"]
    # Both softmaxes read the filled scores, not the product from before the in-place fill.
    for softmax in ("softmax", "softmax_1"):
        assert list(graph.predecessors(softmax)) == ["masked_fill"]
    assert sorted(graph.successors("mul")) == ["masked_fill"]
    assert [d["dtype"] for *_, d in graph.in_edges("masked_fill", data=True)] == ["float32", "bool"]
    assert graph.nodes["input:mask"]["kind"] == "input"
    assert graph.has_edge("add", "output")


def test_same_tensor_used_twice_gives_two_edges() -> None:
    class Square(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * x

    model = Square()
    with tracer.trace(model) as t:
        model(torch.randn(4))
    graph = t.graph
    assert graph.number_of_edges("input:x", "mul") == 2
    assert sorted(graph.get_edge_data("input:x", "mul")) == [0, 1]


def test_failing_forward_graph_marks_the_failing_op() -> None:
    class Broken(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = nn.Linear(D, D)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.lin(x) @ torch.ones(D + 1, 2)

    model = Broken()
    with pytest.raises(RuntimeError):
        with tracer.trace(model) as t:
            model(torch.randn(3, D))
    graph = t.graph
    errors = {node: data["error"] for node, data in graph.nodes(data=True) if data.get("error")}
    assert list(errors) == ["matmul"] and errors["matmul"].startswith("RuntimeError")
    assert graph.has_edge("linear", "matmul") and graph.out_degree("matmul") == 0
    assert "output" not in graph


def test_cross_attention_reads_the_encoder_memory() -> None:
    torch.manual_seed(0)
    model = EncoderDecoderTransformer(11, 13, d_model=D, num_heads=H, d_ff=D_FF, num_layers=1, max_len=MAX_LEN).eval()
    src, tgt = torch.randint(1, 11, (B, T + 2)), torch.randint(1, 13, (B, T))
    with tracer.trace(model) as t:
        logits = model(src, tgt)
    graph = t.graph
    by_module = {}
    for node, data in graph.nodes(data=True):
        if data["kind"] == "op" and data["op"] == "linear":
            by_module[data["module"]] = node
    cross = "decoder.layers.0.cross_attn"
    # Keys and values of the cross-attention come from the source; its queries do not.
    for role in ("w_k", "w_v"):
        assert nx.has_path(graph, "input:src_tokens", by_module[f"{cross}.{role}"])
    assert not nx.has_path(graph, "input:src_tokens", by_module[f"{cross}.w_q"])
    assert nx.has_path(graph, "input:tgt_tokens", by_module[f"{cross}.w_q"])
    assert not nx.has_path(graph, "input:tgt_tokens", by_module["encoder.layers.0.self_attn.w_k"])
    # The cross-attention scores are T_q x T_k; the causal mask is T x T.
    scores = [n for n, d in graph.nodes(data=True) if d.get("op") == "matmul" and d["module"] == f"{cross}"]
    assert len(scores) == 2
    assert {d["shape"] for *_, d in graph.out_edges(scores[0], data=True)} == {(B, H, T, T + 2)}
    triu = [n for n, d in graph.nodes(data=True) if d.get("op") == "triu"]
    assert len(triu) == 1 and {d["shape"] for *_, d in graph.out_edges(triu[0], data=True)} == {(T, T)}
    [(last, _, data)] = graph.in_edges("output", data=True)
    assert data["shape"] == tuple(logits.shape) == (B, T, 13)
    assert graph.nodes[last]["module"] == "vocab_projection"
    assert graph.graph["root"] == "EncoderDecoderTransformer" and graph.graph["forward_passes"] == 1


def test_on_correct_models_every_attention_softmax_works_over_a_key_axis() -> None:
    """The graph's roles agree with the checks: docs/graph.md's query flags no correct zoo model. A block
    with no table of queries against keys (additive attention of one decoder state over the encoder's
    states) normalizes over the sequence its values are summed over, which has no key copy to name. Where no key
    axis can be named (weights a layer predicts over deformable attention's points; Linformer's keys projected
    along the positions) the axis normalized is the one the values are summed over. Routing by agreement
    (capsules) normalizes over its outputs by design: the query may list it, no check reports it."""
    from models.zoo import catalogue
    from support import check_entry

    for name, entry in catalogue().items():
        if entry.expected:
            continue
        _, trace = check_entry(entry)
        blocks = {block.norm_event: block for block in trace.analysis.blocks if block.kind == "softmax"}
        graph = trace.graph
        for node, data in graph.nodes(data=True):
            block = blocks.get(data.get("event"))
            if block is None or block.by_agreement:
                continue
            allowed = {"key"} if block.query_axis is not None else {"key", "sequence"}
            if not any(role in allowed for _, role in data["over"]):
                table = trace.analysis.table  # no key to name: the axis normalized is the one summed over
                assert table.find(block.normalized_axis) in {table.find(a) for a in block.contracted_axes}, name
                continue
            assert any(role in allowed for _, role in data["over"]), (name, node, data["over"])
