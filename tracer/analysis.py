"""From a recording to meaning: axes for every value, attention blocks, findings, summary.

This is the one place that runs the stages after recording in order; each stage only
reads what the previous ones produced.
"""

from __future__ import annotations

from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING

import torch

from .axes import AxisTable
from .blocks import AttentionBlock, find_blocks
from .checks import run_checks
from .checks.consequences import folded
from .checks.limits import Limitation, checks_not_run, limitations
from .dataflow import Dataflow
from .events import Recording, TensorMeta
from .findings import Finding, merge_repeats
from .graph import build_graph, op_node_ids
from .evidence.layout import Layout, attention_products, describe_votes, gather_votes, prior_layout, settle
from .evidence.padding import Padding, find_padding
from .inputs import InputAxes, assign_input_axes
from .rules import RULES, OpFacts
from .rules.base import RuleContext, fallback
from .vocabulary import named_axes

if TYPE_CHECKING:
    import networkx as nx

VIEWS = frozenset({"getitem", "view", "reshape", "transpose", "permute", "narrow", "select", "unsqueeze",
                   "squeeze", "expand", "flatten", "unflatten", "movedim", "t"})  # share their input's storage
DTYPE_BYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "bool": 1}
# A submission that computed no attention passes every attention check vacuously; say so, so that
# "no findings" on an attention exercise is not read as a pass (issue 20).
NO_ATTENTION = ("no attention block found: the forward pass computed no attention weights (no softmax over "
                "query-key scores, no scaled_dot_product_attention or nn.MultiheadAttention), so no attention "
                "check had anything to check")
MAX_PASSES = 3  # hypothesis, then settled roles; a third only if settling moved them again


@dataclass
class Reading:
    """What the axes stage produces from a recording: every value's axes under the settled input
    layout, each op's facts, and the attention blocks. The evidence stages after it (padding, the
    layout's votes) read this and nothing later, so none of them can depend on a finding."""

    recording: Recording
    layout: Layout = field(default_factory=Layout)
    table: AxisTable = field(default_factory=AxisTable)
    axes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # vid -> axes
    facts: dict[int, OpFacts] = field(default_factory=dict)  # event index -> facts
    inputs: InputAxes = field(default_factory=InputAxes)
    flow: Dataflow | None = None
    blocks: list[AttentionBlock] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the user should know about this analysis

    def axes_of(self, meta: TensorMeta) -> tuple[int, ...]:
        return self.axes.get(meta.vid) or tuple(self.table.new("unknown", s) for s in meta.shape)

    def named_axes(self, meta: TensorMeta) -> list[tuple[str, str]]:
        """`[(name, role), ...]` of a value, roles from `tracer.vocabulary.ROLES`."""
        return named_axes(self.table, self.axes_of(meta))

    def input_dims(self, axis: int) -> list[tuple[int, int]]:
        """The (input vid, dim) pairs an axis stands for (a role copy stands for its sequence)."""
        root = self.table.find(self.table.base_of(axis))
        return [dim for candidate, dims in self.inputs.dims.items() if self.table.find(candidate) == root for dim in dims]

    def evidence(self, axis: int, role: str) -> str:
        """Why the input dim behind `axis` plays `role`: `dim 0 of ids is the batch: ...`, or ""."""
        words = {"batch": "the batch", "seq": "a sequence", "feature": "features"}
        for vid, dim in self.input_dims(axis):
            votes = [vote for vote in self.layout.votes if (vote.vid, vote.dim, vote.role) == (vid, dim, role)]
            if votes:
                name = self.recording.sources[vid].name
                return f"dim {dim} of {name} is {words[role]}: {describe_votes(votes, self.recording)}"
        return ""

    def describe(self, meta: TensorMeta) -> str:
        """`B=2 × H=4 × Tq=5 × Tk=5`: a value's shape with its axis names."""
        return self.table.describe_shape(self.axes_of(meta))

    def module_types(self) -> dict[str, str]:
        return {call.path: call.type_name for call in self.recording.module_calls}


@dataclass
class Analysis(Reading):
    """A reading with what the later stages made of it: padding, findings, witnesses."""

    padding: dict[str, Padding] = field(default_factory=dict)  # sequence id -> its padding
    findings: list[Finding] = field(default_factory=list)
    shared: dict = field(default_factory=dict)  # results two checks read (the causal masks), computed once
    witnesses: dict = field(default_factory=dict)  # what the witnesses ran and skipped (tracer.witness)
    limitations: list[Limitation] = field(default_factory=list)  # value checks that did not run, and where

    @classmethod
    def of(cls, reading: Reading, padding: dict[str, Padding]) -> "Analysis":
        return cls(**{item.name: getattr(reading, item.name) for item in fields(Reading)}, padding=padding)

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        return build_graph(self.recording, self)

    @cached_property
    def node_ids(self) -> list[str]:
        return op_node_ids(self.recording)

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
            **({"witnesses": self.witnesses} if self.witnesses else {}),
            **({"checks_not_run": checks_not_run(self.limitations)} if self.limitations else {}),
        }


def infer_axes(recording: Recording, layout: Layout, flow: Dataflow) -> Reading:
    """One pass: axes for every value under `layout`'s input roles, then the attention blocks."""
    reading = Reading(recording, layout, flow=flow)
    reading.inputs = assign_input_axes(recording, reading.table, layout)
    reading.axes.update(reading.inputs.axes)
    products = layout.attention_products
    written = _written(recording, flow)
    params = {vid for vid, source in recording.sources.items() if source.kind == "param"}
    table, known, all_facts, none = reading.table, reading.axes, reading.facts, frozenset()
    for event in recording.events:  # once per op and pass: `axes_of` and `rules.infer` inline
        metas = event.inputs
        inputs = []
        for meta in metas:
            axes = known.get(meta.vid)
            inputs.append(axes if axes else reading.axes_of(meta))
        of_params = [i for i, meta in enumerate(metas) if meta.vid in params] if params else None
        facts = all_facts[event.index] = OpFacts()
        ctx = RuleContext(table, event, inputs, facts, products.get(event.index), bool(metas) and metas[0].vid in written,
                          frozenset(of_params) if of_params else none)
        try:
            outputs = RULES.get(event.op, fallback)(ctx)
        except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError):
            outputs = [ctx.fresh(out.shape) for out in event.outputs]  # an unexpected argument form
        for meta, axes in zip(event.outputs, outputs):
            known[meta.vid] = axes if len(axes) == len(meta.shape) else ctx.fresh(meta.shape)
    try:
        reading.blocks = find_blocks(flow, reading.table, reading.axes, reading.facts)
    except Exception as problem:  # noqa: BLE001 - the checks that need no blocks still run
        reading.notes.append(f"internal error while finding attention blocks: {type(problem).__name__}: {problem}")
    return reading


def _written(recording: Recording, flow: Dataflow) -> set[int]:
    """Values the forward writes in place, and what they are views of (a cache written through
    `k_cache[:B].index_copy_(...)` is written as a whole): no read-only table among them."""
    written: set[int] = set()
    for event in recording.events:
        if not event.inplace:
            continue
        written.update(meta.vid for meta in event.outputs)
        vid = event.inputs[0].vid if event.inputs else None
        while vid is not None and vid not in written:
            written.add(vid)
            made = flow.made_by(vid)
            vid = made.inputs[0].vid if made is not None and made.op in VIEWS and made.inputs else None
    return written


def settled_reading(recording: Recording, forced: str | None = None) -> Reading:
    """Passes until the input roles the evidence settles stop changing (see `evidence.layout`)."""
    flow = Dataflow.of(recording)
    layout = prior_layout(recording, forced)
    for _ in range(MAX_PASSES):
        reading = infer_axes(recording, layout, flow)
        settled = settle(recording, layout, gather_votes(reading), attention_products(reading))
        reading.layout = settled
        if settled.roles == layout.roles and _same_reading(reading, settled.attention_products):
            break
        layout = settled
    return reading


def _same_reading(reading: Reading, products: dict[int, bool]) -> bool:
    """Whether this pass already read every query-key product the way the evidence says: queries
    in its rows with role copies made (so another pass would change nothing)."""
    for index, keys_in_rows in products.items():
        facts = reading.facts.get(index)
        if keys_in_rows or facts is None or facts.query is None or reading.table.get(facts.query).role != "query":
            return False
    return True


def analyse(recording: Recording, layout: str | None = None, select: set[str] | None = None) -> Analysis:
    """Run every stage after recording: axes (settled from evidence), blocks, padding, checks.

    `layout` ("batch-first" or "seq-first") overrides the evidence, for the rare model whose
    forward says too little. Always on the CPU: kept values live there, and the caller may
    still be inside a `torch.device("meta")` block from tracing (whose default device would
    leak into, and be cached by, the masks the analysis builds).
    """
    on_cpu = torch.get_default_device().type == "cpu"  # a mode costs every torch call: enter it only if needed
    with nullcontext() if on_cpu else torch.device("cpu"):
        return _analyse(recording, layout, select)


def _analyse(recording: Recording, layout: str | None, select: set[str] | None) -> Analysis:
    """The stages in order, each reading what the ones before produced: axes and blocks, padding,
    then checks (witnesses run after, on the live model: `tracer.witness`)."""
    reading = settled_reading(recording, layout)
    analysis = Analysis.of(reading, find_padding(reading))
    if not analysis.blocks and not recording.error:  # a pass that raised has its shape-error to say why
        analysis.notes.append(NO_ATTENTION)
    analysis.findings = folded(merge_repeats(run_checks(analysis, select=select), analysis.module_types()))
    if not any(finding.severity == "error" for finding in analysis.findings):
        analysis.notes += _conflict_notes(analysis)
    analysis.limitations = limitations(analysis)
    analysis.notes += list(dict.fromkeys(limitation.note for limitation in analysis.limitations))
    return analysis


def _conflict_notes(analysis: Analysis) -> list[str]:
    """Evidence the settled layout overruled, said aloud when no finding already explains it."""
    notes = []
    contradicted = analysis.layout.contradicted()  # the same list for every dim: made once
    for vid, roles in analysis.layout.roles.items():
        name = analysis.recording.sources[vid].name
        for dim, role in enumerate(roles):
            against = [vote for vote in contradicted if (vote.vid, vote.dim) == (vid, dim)]
            if against:
                notes.append(f"conflicting evidence about dim {dim} of {name}, read as {role or 'unknown'}: "
                             f"{describe_votes(against, analysis.recording)}")
    return notes
