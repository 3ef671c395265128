"""Diagrams (issue 4): the DOT source is parsed back and its structure asserted.

Clusters per module, edge labels in axis names, red boxes exactly at the flagged ops, "× N"
for repeated blocks, depth and focus, the attention view's canonical steps, exports, the
missing-Graphviz path, the CLI's exit statuses, and byte-identical output across runs.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import networkx as nx
import pytest
import torch
from torch import nn

import tracer
from tracer.cli import main
from tracer.commands.common import trace_target
from tracer.graph import findings_by_event
from tracer.render import RenderError, RenderOptions, diagram, drawing, render_to_file
from tracer.render.mask_kinds import describe_hidden, mask_kind
from tracer.render.output import responsive_svg
from tracer.targets import zoo_entries
from tracer.trace import Trace

FLAG_BORDER = "#cf222e"
REPO = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=None)
def traced(name: str) -> Trace:
    """One forward pass of `zoo:NAME`, shared by the tests (rendering never changes a trace)."""
    return trace_target(f"zoo:{name}")[1]


# ------------------------------------------------------------------ a small DOT reader
NODE = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|[\w.]+) \[(.*)\]$')
EDGE = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|[\w.]+) -> ("(?:[^"\\]|\\.)*"|[\w.]+)(?: \[(.*)\])?$')
SUBGRAPH = re.compile(r'^\s*subgraph ("(?:[^"\\]|\\.)*"|[\w./:]+) \{$')


def _name(token: str) -> str:
    return token[1:-1] if token.startswith('"') else token


@dataclass
class Dot:
    nodes: dict[str, str] = field(default_factory=dict)  # name -> attribute text
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (tail, head, label)
    clusters: dict[str, str] = field(default_factory=dict)  # name -> label text
    parent: dict[str, str | None] = field(default_factory=dict)  # cluster -> enclosing cluster
    where: dict[str, str | None] = field(default_factory=dict)  # node -> innermost cluster

    def red(self) -> set[str]:
        return {name for name, attrs in self.nodes.items() if f'color="{FLAG_BORDER}"' in attrs}

    def text(self, name: str) -> str:
        """The visible words of a node's HTML label."""
        return re.sub(r"<[^>]*>", " ", self.nodes[name]).replace("&gt;", ">")

    def cluster_of_label(self, fragment: str) -> str:
        matches = [name for name, label in self.clusters.items() if fragment in label]
        assert len(matches) == 1, (fragment, self.clusters)
        return matches[0]


def parse(source: str) -> Dot:
    dot, stack = Dot(), []
    for line in source.splitlines():
        if match := SUBGRAPH.match(line):
            name = _name(match.group(1))
            stack.append(name)
            if name.startswith("cluster"):
                dot.clusters[name] = ""
                dot.parent[name] = next((s for s in reversed(stack[:-1]) if s.startswith("cluster")), None)
        elif line.strip() == "}":
            if stack:
                stack.pop()
        elif (match := EDGE.match(line)):
            label = re.search(r"<FONT[^>]*>(.*?)</FONT>", match.group(3) or "")
            if "invis" not in (match.group(3) or ""):
                text = label.group(1).replace("&gt;", ">") if label else ""
                dot.edges.append((_name(match.group(1)), _name(match.group(2)), text))
        elif (match := NODE.match(line)) and match.group(1) not in ("node", "edge", "graph"):
            name = _name(match.group(1))
            if name.startswith("title/"):  # a frame's name is drawn by a title node inside it
                dot.clusters[name[len("title/"):]] = re.sub(r"<[^>]*>", "", match.group(2))
                continue
            dot.nodes[name] = match.group(2)
            dot.where[name] = next((s for s in reversed(stack) if s.startswith("cluster")), None)
    return dot


def dot_of(name: str, **options) -> Dot:
    return parse(diagram(traced(name), **options).source)


# ------------------------------------------------------------------ meaning on the page
def test_edges_carry_axis_names_and_sizes() -> None:
    dot = dot_of("softmax_axis_query")
    into_softmax = [label for tail, head, label in dot.edges if head == "softmax"]
    assert into_softmax == ["B=2 × H=2 × Tq=5 × Tk=5"]
    assert ("linear", "transpose", "B=2 × T=5 × d=16") in dot.edges  # q_proj -> split heads
    assert "over Tq=5 (queries)" in dot.text("softmax")


def test_flagged_softmax_is_red_with_code_and_message() -> None:
    dot = dot_of("softmax_axis_query")
    assert dot.red() == {"softmax"}
    assert "error[softmax-axis]" in dot.text("softmax")
    assert "query positions" in dot.text("softmax")


@pytest.mark.parametrize("name", [
    "softmax_axis_query", "causal_diagonal_triu_zero", "head_split_view_no_transpose",
    "layernorm_axis_mean_dim1", "mask_value_fill_discarded", "shape_error_missing_transpose",
])
def test_red_boxes_are_exactly_the_flagged_ops(name: str) -> None:
    analysis = traced(name).analysis
    expected = {analysis.node_ids[index] for index in findings_by_event(analysis)}
    assert expected, "a buggy zoo model must have findings tied to ops"
    assert dot_of(name, all_ops=True, expand=True).red() == expected


def test_correct_model_and_no_flags_have_no_red() -> None:
    assert dot_of("ref_encoder_postnorm").red() == set()
    assert dot_of("softmax_axis_query", flags=False).red() == set()


def test_masks_say_kind_and_axes() -> None:
    dot = dot_of("causal_diagonal_triu_zero")
    assert "causal, diagonal hidden" in dot.text("masked_fill")
    assert "along Tq, Tk" in dot.text("masked_fill")
    padding = drawing(traced("ref_encoder_postnorm"), RenderOptions())
    masks = [n for n in padding.nodes.values() if n.kind == "mask"]
    assert masks and all("padding over keys" in n.lines and "along B, Tk" in n.lines for n in masks)


@pytest.mark.parametrize(("name", "block", "kind"), [
    ("ref_encoder_decoder", 0, "padding over keys"),
    ("ref_encoder_decoder", 2, "causal + padding over keys"),
    ("ok_pair_padding_mask", 0, "padding over keys and queries"),  # an encoder's query-padding mask
    ("mask_axis_query_broadcast", 0, "padding over queries"),
    ("causal_diagonal_triu_zero", 0, "causal, diagonal hidden"),  # not padding: the band hides row 0
    ("ok_sliding_window", 0, "causal window of 3 keys"),
    ("ok_local_window_encoder", 0, "window ±2"),
    ("ok_prefix_lm", 0, "causal after a prefix of 3 keys"),
    ("ok_static_kv_cache", 0, "causal"),  # unwritten cache slots are hidden by the band itself
    ("causal_leak_static_kv_cache", 0, "causal, shifted +1"),
    ("causal_leak_triu_polarity", 0, "hides past keys"),
    ("ok_graph_attention", 0, "other"),
    ("ok_attention_mask_unpadded", 0, "mask (hides nothing)"),
])
def test_mask_kind_names_every_part(name: str, block: int, kind: str) -> None:
    analysis = traced(name).analysis
    found = analysis.blocks[block]
    assert [mask_kind(analysis, found, use) for use in found.masks] == [kind]


def test_mask_parts_read_from_the_hidden_pattern() -> None:
    causal = torch.ones(4, 4, dtype=torch.bool).triu(1)
    keys = torch.tensor([False, False, False, True])
    assert describe_hidden(causal[None, None]) == "causal"
    assert describe_hidden((causal | keys)[None, None]) == "causal + padding over keys"
    rows = keys[:, None].expand(4, 4)
    assert describe_hidden((rows | keys)[None, None]) == "padding over keys and queries"
    assert describe_hidden(rows[None, None]) == "padding over queries"
    scattered = torch.tensor([[0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 0, 1], [1, 1, 0, 0]], dtype=torch.bool)
    assert describe_hidden(scattered[None, None]) == "other"
    decode_step = torch.ones(4, 6, dtype=torch.bool).triu(3)  # two cached keys in front: offset 2
    assert describe_hidden(decode_step[None, None], offset=2) == "causal"
    assert describe_hidden(decode_step[None, None], offset=0) == "causal, shifted +2"


class CausalThenPadding(nn.Module):
    """A causal mask, then a padding mask broadcast over the queries (mask-axis), in that order."""

    def __init__(self, d: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.heads, self.qkv, self.out = heads, nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        B, T, d = x.shape
        q, k, v = (t.view(B, T, self.heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        scores = scores.masked_fill(attention_mask[:, None, :, None] == 0, float("-inf"))
        return self.out((scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, d))


def test_attention_view_masks_in_code_order_each_with_its_own_finding() -> None:
    torch.manual_seed(0)
    model = CausalThenPadding().eval()
    with tracer.trace(model) as traced_model:
        model(torch.randn(2, 5, 16), torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]))
    dot = parse(diagram(traced_model, attention=True).source)
    assert ("block0/mask", "block0/mask1") in {(tail, head) for tail, head, _ in dot.edges}
    assert "causal" in dot.text("block0/mask") and "padding" not in dot.text("block0/mask")
    assert "padding over queries" in dot.text("block0/mask1")
    assert "block0/mask1" in dot.red() and "block0/mask" not in dot.red()  # (the softmax is red: nan)
    assert "mask-axis" in dot.text("block0/mask1")


class CatAndIndex(nn.Module):
    def forward(self, x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return torch.cat([x, x * 2], dim=-1)[:, index]


def test_tensor_arguments_inside_lists_show_as_tensors() -> None:
    model = CatAndIndex()
    with tracer.trace(model) as traced_model:
        model(torch.randn(2, 5, 4), torch.tensor([0, 2]))
    lines = {n.title: n.lines for n in drawing(traced_model, RenderOptions()).nodes.values()}
    assert lines["cat"] == ["2 tensors, dim=-1"]
    assert re.fullmatch(r"\[:, \[[^\]]+\]\]", lines["getitem"][0]), lines["getitem"]  # `[:, [T]]`


def _labels(made) -> list[str]:
    texts = [made.title, *(c.label for c in made.clusters.values()), *(e.label for e in made.edges)]
    for node in made.nodes.values():
        texts += [node.title, *node.lines, *node.params, *node.flags]
    return texts


def test_no_label_in_the_zoo_shows_a_recording_placeholder() -> None:
    """`{'$t': 0}` is how the recording writes a tensor argument down; a reader never sees it."""
    leaked = []
    for name in sorted(zoo_entries()):
        for attention in (False, True):
            made = drawing(traced(name), RenderOptions(attention=attention))
            leaked += [(name, attention, text) for text in _labels(made) if "$t" in text or "{'" in text]
    assert not leaked


def test_bookkeeping_folded_and_head_split_one_box() -> None:
    folded = drawing(traced("ok_sdpa_causal"), RenderOptions())
    titles = [n.title for n in folded.nodes.values()]
    assert "contiguous" not in titles
    assert titles.count("split heads") == 3 and titles.count("merge heads") == 1
    everything = drawing(traced("ok_sdpa_causal"), RenderOptions(all_ops=True))
    assert "contiguous" in [n.title for n in everything.nodes.values()]
    assert any(n.kind == "param" for n in everything.nodes.values())


def test_dead_ends_dropped_unless_all_ops() -> None:
    """The reference attention's `any()` guard feeds a Python `if`, not the output."""
    assert "any" not in dot_of("ref_encoder_postnorm").nodes
    assert "any" in dot_of("ref_encoder_postnorm", all_ops=True).nodes


def test_params_and_inputs_distinct() -> None:
    dot = dot_of("softmax_axis_query")
    assert "input/x" in dot.nodes and 'fillcolor="#dafbe1"' in dot.nodes["input/x"]
    assert "weight 16×16 · bias 16" in dot.text("linear")  # the parameter band
    legend = dot.text("legend")
    assert "input tensor" in legend and "parameters the op reads" in legend and "Tk" in legend


# ------------------------------------------------------------------ modules, depth, repeats, focus
def test_clusters_per_module_nested_with_dotted_paths() -> None:
    dot = dot_of("ref_encoder_postnorm", expand=True)
    layer = dot.cluster_of_label("layers.0 · EncoderLayer")
    attention = dot.cluster_of_label("layers.0.self_attn · MultiHeadAttention")
    assert dot.parent[attention] == layer
    assert dot.cluster_of_label("layers.1.norm2 · LayerNorm")
    assert dot.where["masked_fill"] == attention


def test_repeated_layers_drawn_once_with_count() -> None:
    dot = dot_of("ref_encoder_postnorm")
    run = dot.cluster_of_label("layers.0 … layers.1")
    assert "× 2" in dot.clusters[run]
    assert not any(label.startswith("layers.1") for label in dot.clusters.values())
    assert "masked_fill_1" not in dot.nodes  # layer 1's ops are layer 0's, drawn once
    expanded = dot_of("ref_encoder_postnorm", expand=True)
    assert "masked_fill_1" in expanded.nodes and not any("×" in label for label in expanded.clusters.values())


def test_depth_collapses_modules_into_boxes_with_axes() -> None:
    top = dot_of("ref_encoder_decoder", depth=0)
    boxes = {name for name, attrs in top.nodes.items() if "shape=box3d" in attrs}
    assert {"module/encoder", "module/decoder"} <= boxes and not top.clusters
    assert "in[0]: B=2 × T_src_tokens=7 × d=32" in top.text("module/encoder")
    one = dot_of("ref_encoder_decoder", depth=1)
    assert one.where["module/encoder.layers.0"] == one.cluster_of_label("encoder · TransformerEncoder")
    assert "× 2" in one.text("module/encoder.layers.0")
    two = dot_of("ref_encoder_decoder", depth=2)
    run = two.cluster_of_label("encoder.layers.0 … encoder.layers.1")
    assert two.where["module/encoder.layers.0.self_attn"] == run


def test_collapsed_module_with_finding_turns_red_with_count() -> None:
    dot = dot_of("layernorm_axis_mean_dim1", depth=0)
    assert dot.red() == {"module/norm"}
    assert "1 finding inside" in dot.text("module/norm") and "layernorm-axis" in dot.text("module/norm")


def test_focus_draws_one_module_and_its_boundary() -> None:
    dot = dot_of("ref_encoder_postnorm", focus="layers.0.self_attn", expand=True)
    assert "masked_fill" in dot.nodes and "masked_fill_1" not in dot.nodes
    assert not any(name.startswith("mean") for name in dot.nodes)  # layer norms are outside
    second = dot_of("ref_encoder_postnorm", focus="layers.1.self_attn")  # not folded into layer 0
    assert "masked_fill_1" in second.nodes and "masked_fill" not in second.nodes
    with pytest.raises(RenderError, match="did you mean layers.0.self_attn"):
        diagram(traced("ref_encoder_postnorm"), focus="layers.0.self_atn")


def test_focus_draws_only_the_values_crossing_the_module() -> None:
    """The encoder-decoder's decoder self-attention: its ops, two values in, one out, nothing else."""
    focus = "decoder.layers.0.self_attn"
    made = drawing(traced("ref_encoder_decoder"), RenderOptions(focus=focus))
    ends = {end for edge in made.edges for end in (edge.tail, edge.head)}
    assert set(made.nodes) == ends  # every box is connected
    boundary = {n.id: n for n in made.nodes.values() if n.kind == "boundary"}
    entering = sorted(n.lines[0] for n in boundary.values() if n.title == "in")
    leaving = [n.lines for n in boundary.values() if n.title == "out"]
    assert entering == ["B=2 × T_tgt_tokens=5 · bool", "B=2 × T_tgt_tokens=5 × d=32"]
    assert leaving == [["B=2 × Tq_tgt_tokens=5 × d=32", "to decoder.layers.0.dropout"]]
    events = traced("ref_encoder_decoder").analysis.recording.events
    by_id = dict(zip(traced("ref_encoder_decoder").analysis.node_ids, events))
    drawn = [by_id[node] for node in made.nodes if node in by_id]
    assert drawn and all(e.module == focus or e.module.startswith(focus + ".") for e in drawn)
    assert len(made.nodes) < 30
    width = re.search(r'<svg width="([\d.]+)pt"', diagram(traced("ref_encoder_decoder"), focus=focus).svg())
    assert width and float(width.group(1)) < 1500  # it was 50,854 pt: a box per op outside the module
    inner = drawing(traced("ref_encoder_decoder"), RenderOptions(focus="encoder"))
    out = [n for n in inner.nodes.values() if n.title == "out"]
    assert [n.lines[-1] for n in out] == ["to decoder"]  # its readers named where they leave the focus


# ------------------------------------------------------------------ the attention view
def test_attention_view_canonical_chain() -> None:
    dot = dot_of("exercise4", attention=True)
    chain = ["block0/scores", "block0/scale", "block0/mask", "block0/softmax", "block0/apply",
             "block0/concat", "block0/w_o"]
    edges = {(tail, head): label for tail, head, label in dot.edges}
    for tail, head in zip(chain, chain[1:]):
        assert (tail, head) in edges, (tail, head)
    assert edges[("block0/scores", "block0/scale")] == "B=8 × H=8 × Tq=128 × Tk=128"
    assert edges[("block0/q", "block0/scores")] == "B=8 × H=8 × T=128 × dh=32"
    assert ("block0/v", "block0/apply") in edges
    assert "over Tk=128 (keys)" in dot.text("block0/softmax")
    assert "no mask" in dot.text("block0/mask") and "dashed" in dot.nodes["block0/mask"]
    assert "= 1/√32" in dot.text("block0/scale")
    assert "→ B=8 × Tq=128 × d=256" in dot.text("block0/w_o")


def test_attention_view_flags_and_repeats() -> None:
    assert dot_of("softmax_axis_query", attention=True).red() == {"block0/softmax"}
    dot = dot_of("ref_encoder_decoder", attention=True)
    assert len(dot.clusters) == 3 and all("× 2" in label for label in dot.clusters.values())
    assert "causal + padding" in dot.text("block1/mask")
    assert len(dot_of("ref_encoder_decoder", attention=True, expand=True).clusters) == 6


# ------------------------------------------------------------------ files, formats, determinism
def test_dot_and_svg_byte_identical_across_runs(tmp_path: Path) -> None:
    first = trace_target("zoo:ref_encoder_postnorm")[1]
    second = trace_target("zoo:ref_encoder_postnorm")[1]
    assert diagram(first, depth=1).source == diagram(second, depth=1).source
    render_to_file(first, tmp_path / "a.svg")
    render_to_file(second, tmp_path / "b.svg")
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_dot_identical_across_processes(tmp_path: Path) -> None:
    """Another process with another hash seed writes the same bytes as this one."""
    path = tmp_path / "other.dot"
    command = "import sys; from tracer.cli import main; sys.exit(main(sys.argv[1:]))"
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    subprocess.run([sys.executable, "-c", command, "render", "zoo:causal_diagonal_triu_zero", "-o", str(path)],
                   check=True, env={**os.environ, "PYTHONHASHSEED": seed}, cwd=REPO, capture_output=True)
    here = diagram(trace_target("zoo:causal_diagonal_triu_zero")[1]).source
    assert path.read_text(encoding="utf-8") == here


def test_exports_graphml_and_json(tmp_path: Path) -> None:
    trace = traced("softmax_axis_query")
    render_to_file(trace, tmp_path / "g.graphml")
    graph = nx.read_graphml(tmp_path / "g.graphml")
    assert graph.number_of_nodes() == trace.analysis.graph.number_of_nodes()
    assert json.loads(graph.nodes["softmax"]["findings"]) == ["softmax-axis"]
    render_to_file(trace, tmp_path / "g.json")
    data = json.loads((tmp_path / "g.json").read_text())
    assert {"nodes", "edges"} <= set(data)
    assert [["B", "batch"], ["H", "heads"], ["Tq", "query"], ["Tk", "key"]] in [edge.get("axes") for edge in data["edges"]]


def test_image_formats_and_theme(tmp_path: Path) -> None:
    trace = traced("softmax_axis_query")
    for suffix, magic in ((".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF")):
        render_to_file(trace, tmp_path / f"d{suffix}")
        assert (tmp_path / f"d{suffix}").read_bytes().startswith(magic)
    assert 'bgcolor="#0d1117"' in diagram(trace, theme="dark").source
    with pytest.raises(RenderError):
        RenderOptions(theme="sepia")
    with pytest.raises(TypeError, match="unknown render option"):
        diagram(trace, colour="red")


def test_jupyter_display_scales_without_clipping() -> None:
    shown = diagram(traced("softmax_axis_query"))._repr_mimebundle_()
    svg = shown["image/svg+xml"]
    opening = svg[svg.index("<svg"):svg.index(">", svg.index("<svg"))]
    assert "viewBox" in opening and "max-width:100%" in opening
    assert "width=" not in opening.replace("max-width", "")
    assert responsive_svg('<svg width="1pt" height="2pt" viewBox="0 0 1 2">') == \
        '<svg style="max-width:100%;height:auto" viewBox="0 0 1 2">'


def test_trace_render_returns_the_path_that_displays(tmp_path: Path) -> None:
    written = traced("softmax_axis_query").render(str(tmp_path / "t.dot"), depth=0)
    assert written == str(tmp_path / "t.dot") and isinstance(written, str)
    assert "image/svg+xml" in written._repr_mimebundle_()


def test_missing_dot_keeps_dot_output_and_explains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    trace = traced("softmax_axis_query")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    render_to_file(trace, tmp_path / "ok.dot")
    assert (tmp_path / "ok.dot").read_text().startswith("digraph")
    with pytest.raises(RenderError, match="apt-get install graphviz"):
        render_to_file(trace, tmp_path / "no.svg")
    assert "text/plain" in diagram(trace)._repr_mimebundle_()  # Jupyter falls back to the source


# ------------------------------------------------------------------ the command line
def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_writes_file_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "d.dot"
    status, out, _ = run_cli(capsys, "render", "zoo:softmax_axis_query", "-o", str(target), "--depth", "0")
    assert status == 0 and target.exists() and "wrote" in out
    for argv, message in (
        (["zoo:no_such_model", "-o", str(target)], "no zoo model"),
        (["zoo:softmax_axis_query", "-o", str(tmp_path / "d.bmp")], "cannot tell the format"),
        (["zoo:softmax_axis_query", "-o", str(target), "--focus", "nowhere"], "no module 'nowhere'"),
        ([str(tmp_path / "missing.attntrace"), "-o", str(target)], "missing.attntrace"),
    ):
        status, _, err = run_cli(capsys, "render", *argv)
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    status, _, err = run_cli(capsys, "render", "zoo:softmax_axis_query", "-o", str(tmp_path / "d.svg"))
    assert status == 2 and "apt-get install graphviz" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not hasattr(Trace, "save"), reason="saving recordings needs Trace.save")
def test_cli_renders_a_saved_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tracer.store")
    saved = tmp_path / "run.attntrace"
    traced("softmax_axis_query").save(str(saved))
    status, _, _ = run_cli(capsys, "render", str(saved), "-o", str(tmp_path / "saved.dot"))
    assert status == 0
    assert parse((tmp_path / "saved.dot").read_text()).red() == {"softmax"}
