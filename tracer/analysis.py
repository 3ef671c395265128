"""From a recording to meaning: axes for every value, attention blocks, findings, summary.

This is the one place that runs the stages after recording in order; each stage only
reads what the previous ones produced.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import torch

from .axes import AxisTable
from .blocks import AttentionBlock, find_blocks
from .dataflow import Dataflow
from .events import Recording, TensorMeta
from .findings import Finding, merge_repeats
from .graph import build_graph, op_node_ids
from .inputs import InputMeaning, assign_input_axes
from .rules import OpFacts, infer
from .vocabulary import named_axes

if TYPE_CHECKING:
    import networkx as nx

DTYPE_BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "bool": 1}


@dataclass
class Analysis:
    recording: Recording
    layout: str = "batch-first"
    table: AxisTable = field(default_factory=AxisTable)
    axes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # vid -> axes
    facts: dict[int, OpFacts] = field(default_factory=dict)  # event index -> facts
    meaning: InputMeaning | None = None
    flow: Dataflow | None = None
    blocks: list[AttentionBlock] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the user should know about this analysis

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        return build_graph(self.recording)

    @cached_property
    def node_ids(self) -> list[str]:
        return op_node_ids(self.recording)

    def axes_of(self, meta: TensorMeta) -> tuple[int, ...]:
        return self.axes.get(meta.vid) or tuple(self.table.new("unknown", s) for s in meta.shape)

    def named_axes(self, meta: TensorMeta) -> list[tuple[str, str]]:
        """`[(name, role), ...]` of a value, roles from `tracer.vocabulary.ROLES`."""
        return named_axes(self.table, self.axes_of(meta))

    def describe(self, meta: TensorMeta) -> str:
        """`B=2 × H=4 × Tq=5 × Tk=5`: a value's shape with its axis names."""
        return self.table.describe_shape(self.axes_of(meta))

    def module_types(self) -> dict[str, str]:
        return {call.path: call.type_name for call in self.recording.module_calls}

    @property
    def summary(self) -> dict:
        recording = self.recording
        elements = sum(block.elements for block in self.blocks)
        score_bytes = sum(block.elements * DTYPE_BYTES.get(block.dtype, 4) for block in self.blocks)
        return {
            "ops": len(recording.events),
            "modules": len(recording.module_calls),
            "attention_blocks": len(self.blocks),
            "score_elements": elements,
            "score_bytes": score_bytes,
            "forward_passes": recording.forward_passes,
            "ops_by_kind": dict(Counter(e.op for e in recording.events).most_common()),
            "module_calls_by_type": dict(Counter(c.type_name for c in recording.module_calls).most_common()),
            "blocks": [
                {"module": b.module, "kind": b.kind, "shape": list(b.table_shape),
                 "axes": [self.table.get(a).display for a in b.table_axes], "dtype": b.dtype,
                 "elements": b.elements, "bytes": b.elements * DTYPE_BYTES.get(b.dtype, 4)}
                for b in self.blocks
            ],
        }


def infer_axes(recording: Recording, layout: str) -> Analysis:
    analysis = Analysis(recording, layout)
    analysis.meaning = assign_input_axes(recording, analysis.table, layout)
    analysis.axes.update(analysis.meaning.axes)
    for event in recording.events:
        inputs = [analysis.axes_of(meta) for meta in event.inputs]
        outputs, facts = infer(analysis.table, event, inputs)
        analysis.facts[event.index] = facts
        for meta, axes in zip(event.outputs, outputs):
            analysis.axes[meta.vid] = axes
    return analysis


def analyse(recording: Recording, layout: str = "batch-first", select: set[str] | None = None) -> Analysis:
    """Run every stage after recording: axes, dataflow, blocks, checks.

    Always on the CPU: kept values live there, and the caller may still be inside a
    `torch.device("meta")` block from tracing (whose default device would leak into, and
    be cached by, the masks the analysis builds).
    """
    with torch.device("cpu"):
        return _analyse(recording, layout, select)


def _analyse(recording: Recording, layout: str, select: set[str] | None) -> Analysis:
    from .checks import run_checks

    analysis = infer_axes(recording, layout)
    analysis.flow = Dataflow.of(recording)
    try:
        analysis.blocks = find_blocks(analysis.flow, analysis.table, analysis.axes, analysis.facts)
    except Exception as problem:  # noqa: BLE001 - the checks that need no blocks still run
        analysis.notes.append(f"internal error while finding attention blocks: {type(problem).__name__}: {problem}")
    analysis.findings = merge_repeats(run_checks(analysis, select=select), analysis.module_types())
    return analysis

