"""scale-factor: scores entering the softmax must be scaled by 1/sqrt(d_k), d_k the contracted width."""

from __future__ import annotations

import math
from typing import Iterable

from ..blocks import LAYOUT_OPS
from ..evidence.provenance import factor_definitions, installed, module_definition, scaled_in_place
from ..findings import Finding
from .base import Check


def describe_factor(scale: float, d_k: int) -> str:
    """How the scores were scaled, as the formula it most likely came from."""
    if math.isclose(scale, 1.0, rel_tol=1e-4):
        return "are not scaled at all (factor 1)"
    if math.isclose(1 / scale, d_k, rel_tol=1e-4):
        return f"are divided by d_k={d_k} itself"
    for n, text in ((1 / scale**2, "1/sqrt({n})"), (1 / scale, "1/{n}")):
        if round(n) > 1 and abs(n - round(n)) < 1e-3 * n:
            return "are scaled by " + text.format(n=round(n))
    return f"are scaled by {scale:.4g}"


class ScaleFactor(Check):
    code = "scale-factor"
    severity = "warning"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            if block.scale is None or not block.contracted_size or block.product_event is None:
                continue
            if block.by_agreement:
                continue  # routing logits accumulate agreements: no query-key score to scale
            if _recurrent_query(analysis, block):
                continue  # an RNN decoder's state against its encoder's outputs: Luong's dot score is unscaled
            d_k = block.contracted_size
            expected = 1 / math.sqrt(d_k)
            if math.isclose(block.scale, expected, rel_tol=1e-3):
                continue
            if block.score_terms > 1 and math.isclose(block.scale, 1 / math.sqrt(d_k * block.score_terms), rel_tol=1e-3):
                continue  # n query-key terms summed (DeBERTa's disentangled attention) are scaled by sqrt(n·d_k)
            if block.term_widths and all(block.term_widths) and any(
                    math.isclose(block.scale, 1 / math.sqrt(width + sum(block.term_widths)), rel_tol=1e-3)
                    for width in {d_k, block.rank or d_k}):
                continue  # terms of other widths summed (MLA's nope and rope parts): one product of their total width
            if block.rank and not block.term_widths and math.isclose(block.scale, 1 / math.sqrt(block.rank), rel_tol=1e-3):
                continue  # a weight absorbed into q or k: the scores are those of the narrower product it replaces
            if _cosine_scores(analysis, block):
                continue  # unit-length queries and keys: cosines, whose temperature is the model's choice
            if _folded_into_weights(analysis, block):
                continue  # the factor is in q's or k's projection, scaled in place when the module was built
            where = block.scale_events[0] if block.scale_events else block.product_event
            event = analysis.recording.events[where]
            if installed(event.file) and math.isclose(block.scale, 1.0, rel_tol=1e-4):
                continue  # an installed library that leaves its scores unscaled does so by design (T5 folds it into its init)
            yield self.at(
                analysis, where,
                f"scores {describe_factor(block.scale, d_k)} but the query-key product contracts "
                f"d_k={d_k}, which calls for 1/sqrt({d_k}) = {expected:.4g} (a model that folds the scaling "
                "into its weights' initialization, as T5 does, is fine)",
                hint=f"divide the scores by math.sqrt({d_k}) (the per-head width, not d_model)",
                related=_factor_notes(analysis, event) if block.scale_events else (),
            )


RECURRENT = frozenset({"gru_cell", "lstm_cell", "rnn_tanh_cell", "rnn_relu_cell", "gru", "lstm", "rnn_tanh", "rnn_relu"})
QUERY_STEPS = 6  # ops from the product back to the recurrent cell: unsqueeze, getitem, a projection


def _recurrent_query(analysis, block) -> bool:
    """Whether the product's query side (the operand without the keys) is a recurrent cell's state:
    attention of the RNN encoder-decoder family, whose dot score (Luong) has no 1/sqrt(d_k)."""
    table, events = analysis.table, analysis.recording.events
    keys = table.find(table.base_of(block.key_axis)) if block.key_axis is not None else None
    for operand in events[block.product_event].inputs[:2]:
        if keys in {table.find(table.base_of(axis)) for axis in analysis.axes_of(operand)}:
            continue
        vid = operand.vid
        for _ in range(QUERY_STEPS):
            made = analysis.flow.made_by(vid)
            if made is None or not made.inputs:
                break
            if made.op in RECURRENT:
                return True
            vid = made.inputs[0].vid
    return False


def _cosine_scores(analysis, block) -> bool:
    """Whether both sides of the query-key product are scaled to unit length over the features they
    contract (`F.normalize(q, dim=-1)`, `k / k.norm(dim=-1, keepdim=True)`): the scores are cosines, in
    [-1, 1] whatever d_k, so 1/sqrt(d_k) is no convention for them (cosine attention, Swin-V2, qk-norm
    with a fixed temperature)."""
    operands = analysis.recording.events[block.product_event].inputs[:2]
    return len(operands) == 2 and all(_unit_length(analysis, operand.vid) for operand in operands)


def _unit_length(analysis, vid: int) -> bool:
    flow = analysis.flow
    for _ in range(8):  # back through the head split and the transpose of the keys
        made = flow.made_by(vid)
        if made is None or not made.inputs:
            return False
        if made.op == "normalize":
            return made.arg(1, "p", 2.0) == 2.0 and made.arg(2, "dim", 1) in (-1, len(made.inputs[0].shape) - 1)
        if made.op == "div" and len(made.inputs) == 2:
            divisor = flow.made_by(made.inputs[1].vid)
            while divisor is not None and divisor.op in ("clamp", "clamp_min", "add") and divisor.inputs:
                divisor = flow.made_by(divisor.inputs[0].vid)
            return divisor is not None and divisor.op in ("norm", "linalg_vector_norm", "vector_norm") and \
                divisor.arg(1, "p", 2) in (2, "fro", None) and divisor.arg(2, "dim") in (-1, (-1,), [-1])
        if made.op not in LAYOUT_OPS:
            return False
        vid = made.inputs[0].vid
    return False


def _folded_into_weights(analysis, block) -> bool:
    """A projection behind q or k whose weight its module scaled in place at construction."""
    events, sources = analysis.recording.events, analysis.recording.sources
    for operand in events[block.product_event].inputs[:2]:
        vid = operand.vid
        for _ in range(8):  # back through the head split to the projection
            made = analysis.flow.made_by(vid)
            if made is None or not made.inputs:
                break
            if made.op == "linear" and len(made.inputs) > 1:
                source = sources.get(made.inputs[1].vid)
                if source is not None and source.kind == "param" and scaled_in_place(analysis, source.name):
                    return True
                break
            vid = made.inputs[0].vid
    return False


def _factor_notes(analysis, event) -> tuple:
    """Where the factor was computed; when that was in `__init__` (from an argument, often), also
    where the module was made, since the argument it was given may be the mistake."""
    notes = factor_definitions(event.file, event.line, "its factor computed here")
    if any(note.function.endswith("__init__") for note in notes) and event.module:
        notes += module_definition(analysis, event.module, "the module made here (with the arguments the factor used)")
    return notes

