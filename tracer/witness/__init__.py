"""Witnesses: prove a finding by running the model again, and catch what no rule knows.

After the recorded pass, the model is run again under changes that a correct model of its
kind ignores, and the invariant is checked on its outputs:

- *repeat*: a second eval-mode pass gives the same outputs;
- *batch*: changing one sample's data moves no other sample's outputs;
- *padding*: changing what padded positions hold moves no output at a real position and no
  pooled output (a padding mask that pads nothing gets padding of attnscope's own; padding
  known only from a pad id gets that id's embedding row redrawn);
- *causal*: in a model built to be causal (a causal mask, `is_causal`, a KV cache, running sums
  or a first-to-last scan in a language model), changing the tokens after position t moves no
  output at or before t.

A violated witness is localized by difference (`localize`) and becomes a finding with the
witness as its proof (`verdict`); a rule finding whose harm a witness shows absent on these
inputs becomes a note. Each witness costs one untraced forward, and two recorded ones only
when it is violated. They share a baseline, an eval-mode pass on the recorded inputs: the
recorded pass's own outputs when it drew no random number and the repeat witness's pass
reproduces them bit for bit (so the recorded pass was one: tracing changes no value), else one
more forward. This stage takes the model, its inputs, the recorded outputs and the analysis's
facts; it does not reach into the checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import torch
from torch import nn

from ..findings import Finding, Witness
from ..evidence.provenance import installed
from .alone import Alone, alone_move, left_padded, localize_alone, plan_alone
from .compare import Move, moved
from .facts import Facts, gather
from .localize import aligned, judged_inside, localize
from .plans import COMPARES_SAMPLES, Plan, Skipped, plans
from .regions import protected_cells, witnessed
from .runner import Run, Runner, draws_random, identical, input_tensors
from .state import Snapshot, take_snapshot
from .untraced import nonfinite, recorded_finite, untraced_nan, watched
from .verdict import confirm_or_report, makes_positions, mask_use_at, rows_picked_by_caller

__all__ = ["Snapshot", "WitnessOutcome", "run_witnesses", "take_snapshot"]

NOT_LIVE = "witnesses not run: {why}"
# Rule findings whose claimed harm a witness observes: padding reaching real positions, the future
# reaching the past. A clean witness on their sequence refutes them on these inputs.
CLAIMS = {"padding": ("mask-axis", "mask-polarity"), "causal": ("causal-leak",)}
# Witnesses a user expects to run on such a model, so a skip is said in the text report too.
SAID_WHEN_SKIPPED = ("padding",)
PROTECTED = {"padding": "the real positions", "causal": "the positions before the change"}
# Witnesses whose invariant holds for every value inside the model, position by position, not only for
# its outputs: where every output is pooled (one vector per packed image), the values inside are judged.
INSIDE = ("documents",)
UNTRACED_NAN = "the outputs are NaN when the model runs untraced: there is nothing to compare them with"
# The contract's witness kinds: packed documents are samples of their own.
WITNESS_KIND = {"documents": "batch"}


@dataclass
class WitnessOutcome:
    findings: list[Finding]
    ran: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    forwards: int = 0

    @property
    def summary(self) -> dict[str, Any]:
        return {"ran": list(self.ran), "skipped": dict(self.skipped), "forwards": self.forwards}


def not_run(findings: list[Finding], why: str) -> WitnessOutcome:
    return WitnessOutcome(list(findings), notes=[NOT_LIVE.format(why=why)])


def run_witnesses(model: nn.Module, before: Snapshot | None, analysis,
                  outputs: list[tuple[str, torch.Tensor]] | None = None) -> WitnessOutcome:
    """Every witness the target admits; the model is left as the recorded pass left it. `outputs`:
    the recorded pass's (`runner.named_outputs`), taken as it returned."""
    recording = analysis.recording
    if recording.device == "meta":
        return not_run(analysis.findings, "on the meta device there are no values to compare")
    if before is None:
        return not_run(analysis.findings, "the model's state could not be copied")
    if recording.error is not None or recording.forward_passes != 1:
        return WitnessOutcome(list(analysis.findings))
    root = next((call for call in recording.module_calls if call.parent is None), None)
    args, kwargs = before.arguments  # the user's own objects, as the recorded pass left them
    changed = before.changed()
    after = Snapshot.take(model, tuple(args), kwargs) if changed else before
    try:
        return _run_all(model, before, analysis, root, outputs, changed)
    except Exception as problem:  # noqa: BLE001 - a witness never costs the user the rule findings
        return not_run(analysis.findings, f"{type(problem).__name__}: {problem}")
    finally:
        after.restore()


def _run_all(model: nn.Module, before: Snapshot, analysis, root, outputs, changed: bool = True) -> WitnessOutcome:
    # what the recorded pass changed put back; when it changed nothing (`before.changed()` just said so,
    # and nothing ran since), there is nothing to put back, and the first run needs no restore either
    args, kwargs = before.restore() if changed else (tuple(before.arguments[0]), before.arguments[1])
    inputs = input_tensors(args, kwargs)
    outcome = WitnessOutcome(list(analysis.findings))
    if root is None or len(inputs) != len(root.inputs):
        outcome.notes.append(NOT_LIVE.format(why="the forward's inputs could not be matched to the recording"))
        return outcome
    if before.parameters_changed(model):
        outcome.notes.append(NOT_LIVE.format(why="the forward pass writes the model's parameters"))
        return outcome
    facts = gather(analysis, [meta.vid for meta in root.inputs])
    runner = Runner(model, before, analysis.recording.device, restored=True)
    found = plans(facts, inputs)
    repeat = next((plan for plan in found if isinstance(plan, Plan) and plan.kind == "repeat"), None)
    baseline = _baseline(runner, analysis.recording, outputs, repeat)
    if nonfinite(baseline.outputs) and recorded_finite(analysis.recording):
        outcome.findings += _untraced_nan(analysis, model, runner)
        for plan in found:  # an output that is NaN on one path only compares with nothing
            outcome.skipped.setdefault(plan.kind, UNTRACED_NAN)
        outcome.forwards = runner.forwards
        return outcome
    for plan in found:
        if isinstance(plan, Skipped):
            outcome.skipped.setdefault(plan.kind, plan.why)
            if plan.kind in SAID_WHEN_SKIPPED and plan.said:
                outcome.notes.append(f"{plan.kind} witness not run: {plan.why}")
            continue
        _witness(analysis, facts, runner, plan, baseline, outcome)
    if (facts.documents is not None or any(bool(pad.any()) for pad, _ in facts.padding.values())) and \
            not any(finding.witness is not None and finding.witness.kind in ("padding", "batch")
                    for finding in outcome.findings if finding.severity != "info"):
        _alone_witness(analysis, runner, plan_alone(facts, inputs), baseline, outcome)
    outcome.forwards = runner.forwards
    return outcome


def _alone_witness(analysis, runner: Runner, plan: Alone | str, baseline: Run, outcome: WitnessOutcome) -> None:
    """A sample (or packed document) run alone, cut to its real positions, against its outputs in the batch."""
    if isinstance(plan, str):
        outcome.skipped.setdefault("alone", plan)
        return
    try:
        single = runner.run(plan.replace)
    except Exception as problem:  # noqa: BLE001 - a model built for one shape: no reference, no claim
        outcome.skipped.setdefault("alone", f"the sample alone could not be run ({type(problem).__name__})")
        return
    found = alone_move(analysis, plan, baseline.outputs, single.outputs)
    if found is None:
        outcome.skipped.setdefault("alone", "no output has the sample's positions in a form both runs share")
        return
    outcome.ran.append("alone")
    move, words = found
    if move is None:
        return
    witness = Witness(WITNESS_KIND.get(plan.kind, plan.kind), plan.changed, words, round(move.by, 6))
    recorded = runner.run({}, record=True)
    recorded_single = runner.run(plan.replace, record=True)
    same = aligned(analysis.recording, recorded.recording)
    where = analysis if same else _analysed(recorded.recording)
    localized = localize_alone(where, recorded.recording, recorded_single.recording, plan)
    if localized is None or not makes_positions(where, localized.event):
        return  # a difference the padding and documents witnesses did not see: a convolution's edge reading
        # the padding's place (FastSpeech), a sum over the row's length; read by convention, not reported
    if left_padded(plan) and not installed(where.recording.events[localized.event].file):
        return  # positions counted from the row's start under left padding may be the model's own design
    outcome.findings = confirm_or_report(where, f"alone-{plan.kind}", witness, localized, outcome.findings, same)


def _untraced_nan(analysis, model: nn.Module, runner: Runner) -> list[Finding]:
    """The module whose untraced run first turned finite inputs into NaN, as a finding."""
    found: list[str] = []
    with watched(model, found):
        runner.run({}, cached=False)
    finding = untraced_nan(analysis, found[0]) if found else None
    return [finding] if finding is not None else []


def _baseline(runner: Runner, recording, outputs: list[tuple[str, torch.Tensor]] | None,
              repeat: Plan | None) -> Run:
    """The eval-mode pass every witness compares against, at the default seed: the recorded outputs
    when the recorded pass drew no random number and the repeat witness's pass gives them bit for
    bit, else a forward of its own (a model recorded in training mode, one that draws random
    numbers: a draw of a few bits may come out the same under two seeds, one with state not put back)."""
    if outputs is not None and repeat is not None and not draws_random(recording) and \
            identical(outputs, runner.run({}, repeat.seed_offset).outputs):
        runner.known[0] = Run(outputs)
    return runner.run({})


def _witness(analysis, facts: Facts, runner: Runner, plan: Plan, baseline: Run, outcome: WitnessOutcome) -> None:
    first = runner.run(plan.baseline) if plan.baseline else baseline
    second = runner.run({**plan.baseline, **plan.replace}, plan.seed_offset, rows=plan.rows)
    found = _largest_move(analysis, plan, first, second)
    if found is None and plan.unjudged:  # the outputs left are tables of samples against samples: not judged inside
        outcome.skipped.setdefault(plan.kind, COMPARES_SAMPLES)
        return
    if found is None and plan.kind not in INSIDE:
        outcome.skipped.setdefault(plan.kind, "no output has the axes this witness protects")
        return
    if found is not None:
        outcome.ran.append(plan.kind)
    move, words = found if found is not None else (None, "")
    if found is not None and move is None:
        outcome.findings = _refuted(analysis, plan, outcome.findings)
        return
    recorded_first = runner.run(plan.baseline, record=True)
    recorded_second = runner.run({**plan.baseline, **plan.replace}, plan.seed_offset, record=True, rows=plan.rows)
    same = aligned(analysis.recording, recorded_first.recording)
    where = analysis if same else _analysed(recorded_first.recording)
    localized = localize(where, recorded_first.recording, recorded_second.recording, plan.region) \
        if aligned(recorded_first.recording, recorded_second.recording) else None
    if found is None:  # no output could be judged (pooled): the values inside, position by position
        if localized is None:
            if judged_inside(where, recorded_first.recording, plan.region):
                outcome.ran.append(plan.kind)
            else:
                outcome.skipped.setdefault(plan.kind, "no value has the axes this witness protects")
            return
        outcome.ran.append(plan.kind)
        move, words = localized.move, _inside_words(where, localized)
    picked_by = rows_picked_by_caller(where, localized.event) if plan.kind == "batch" and localized else None
    if picked_by is not None:
        event = where.recording.events[localized.event]
        outcome.ran = [kind for kind in outcome.ran if kind != plan.kind]
        outcome.skipped[plan.kind] = (f"the model moves state between samples by the rows {picked_by} picks "
                                      f"(the {event.op} at line {event.line}): which sample may read which is "
                                      f"the caller's to say")
        outcome.notes.append(f"{plan.kind} witness not judged: {outcome.skipped[plan.kind]}")
        return
    witness = Witness(WITNESS_KIND.get(plan.kind, plan.kind), plan.changed, words, round(move.by, 6))
    outcome.findings = confirm_or_report(where, plan.kind, witness, localized, outcome.findings, same)


def _inside_words(analysis, localized) -> str:
    """`the masked_fill's output (line 42) at position 5 of sample 0`: where a value inside moved."""
    event = analysis.recording.events[localized.event]
    return _cell_words(analysis, event.outputs[0], localized.move.cell, f"the {event.op}'s output (line {event.line})")


def _analysed(recording):
    from ..analysis import analyse

    return analyse(recording)


def _largest_move(analysis, plan: Plan, first: Run, second: Run) -> tuple[Move | None, str] | None:
    """The largest protected move over the outputs the region can be placed on, with its words;
    None when no output could be judged."""
    outputs = analysis.recording.outputs
    judged, best = 0, None
    for position, ((name, before), (_, after)) in enumerate(zip(first.outputs, second.outputs)):
        if position >= len(outputs) or tuple(outputs[position].shape) != tuple(before.shape) or position in plan.unjudged:
            continue
        meta = outputs[position]
        cells = protected_cells(analysis.table, analysis.axes_of(meta), meta.shape, plan.region, output=True)
        if cells is None:
            continue
        judged += 1
        move = moved(before, after, cells)
        if move is not None and (best is None or move.by > best[0].by):
            best = (move, _cell_words(analysis, meta, move.cell, name))
    if not judged:
        return None
    return best if best is not None else (None, "")


def _cell_words(analysis, meta, cell: tuple[int, ...], name: str) -> str:
    """`the logits at position 4 of sample 0`: where an output moved, by its axes."""
    table, where, sample = analysis.table, "", ""
    axes = analysis.axes_of(meta)
    several = any(size > 1 and table.get(axis).kind == "batch" for axis, size in zip(axes, meta.shape))
    for dim, axis in enumerate(axes[:len(cell)]):
        kind = table.get(axis).kind
        if kind in ("seq", "pos") and not where:
            where = f" at position {cell[dim]}"
        elif kind == "merged" and not where and _is_grid(table, axis):
            columns = table.get(table.get(axis).parts[1]).size
            where = f" at pixel ({cell[dim] // columns}, {cell[dim] % columns})"
        elif kind == "batch" and several and not sample:
            sample = f" of sample {cell[dim]}"
    return f"{name}{where}{sample}"


def _is_grid(table, axis: int) -> bool:
    """A flattened (rows, columns) grid of pixels."""
    parts = table.get(axis).parts
    return len(parts) == 2 and all(table.get(part).kind == "spatial" for part in parts)


def _refuted(analysis, plan: Plan, findings: list[Finding]) -> list[Finding]:
    """Rule findings claiming a harm this clean witness shows absent on these inputs become notes."""
    claims = CLAIMS.get(plan.kind, ())
    kept = []
    for finding in findings:
        if finding.code in claims and finding.severity == "error" and \
                witnessed(analysis.table, _mask_sequence(analysis, finding, plan.kind), plan.region):
            protected = PROTECTED[plan.kind]
            witness = Witness(plan.kind, plan.changed, f"nothing at {protected}", 0.0)
            finding = replace(finding, severity="info", witness=witness,
                              message=f"{finding.message}; but a witness shows no harm on these inputs: changing "
                                      f"{plan.changed} moved nothing at {protected}")
        kept.append(finding)
    return kept


def _mask_sequence(analysis, finding: Finding, kind: str) -> int | None:
    """The table root of the sequence a mask finding is about (its keys for padding, its queries for
    a causal leak), or None."""
    found = mask_use_at(analysis, finding.event) if finding.event is not None else None
    axis = None if found is None else (found[0].key_axis if kind == "padding" else found[0].query_axis)
    return None if axis is None else analysis.table.find(analysis.table.base_of(axis))
