"""layernorm-axis: layer-norm statistics are per token, over the feature axis only.

In a model without attention, a norm over the features and the positions together is a
per-example normalization (what GroupNorm(1, C) computes in conv nets), not a Transformer's
misplaced LayerNorm, and is left alone; so are statistics over the positions of a model input
itself, before any layer has read it: a per-sample standardization of the signal (RevIN's
instance norm of a look-back window, a speech front end's per-utterance CMVN), whose harms
under padding or causality are the witnesses' to prove. Statistics across the batch are
wrong everywhere.
"""

from __future__ import annotations

from typing import Iterable

from ..axes import SEQ_LIKE
from ..evidence.padding import source_behind
from ..evidence.provenance import module_definition
from ..findings import Finding
from .base import Check
from .layernorm import centrings, rms_norms

WRONG = SEQ_LIKE + ("batch",)


class LayerNormAxis(Check):
    code = "layernorm-axis"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for event in analysis.recording.ops("layer_norm", "rms_norm"):
            axes = analysis.axes_of(event.inputs[0])
            dims = analysis.facts[event.index].normalized
            yield from self._judge(analysis, event.index, [axes[d] for d in dims if d < len(axes)], event.inputs[0],
                                   event.module)
        judged = set()
        for centring in centrings(analysis):
            if centring.mean_event in judged:
                continue  # `x - mean` written twice is one layer norm
            judged.add(centring.mean_event)
            event = analysis.recording.events[centring.mean_event]
            axes = analysis.axes_of(event.inputs[0])
            yield from self._judge(analysis, centring.mean_event, [axes[d] for d in centring.dims], event.inputs[0])
        for rms in rms_norms(analysis):
            if rms.event in judged:
                continue
            judged.add(rms.event)
            source = analysis.recording.events[rms.event].inputs[0]
            axes = analysis.axes_of(source)
            yield from self._judge(analysis, rms.event, [axes[d] for d in rms.dims if d < len(axes)], source)

    def _judge(self, analysis, index: int, normalized: list[int], source, module: str = "") -> Iterable[Finding]:
        """A finding if `normalized` holds a non-feature axis; `module`: the norm module, whose
        definition the finding names (read from the source only then)."""
        table = analysis.table
        wrong = [a for a in normalized if table.get(a).kind in WRONG]
        if not wrong and not any(table.get(a).kind == "feature" for a in normalized):
            wrong = [a for a in normalized if table.is_positions(a)]  # an image's pixels, flattened or not
        per_sample = all(table.get(a).kind != "batch" for a in wrong)
        whole_example = per_sample and any(table.get(a).kind == "feature" for a in normalized)
        if whole_example and not analysis.blocks:
            return  # features and positions together in a model without attention: a per-example norm (GroupNorm(1))
        if wrong and per_sample and _input_itself(analysis, source) and _attends_elsewhere(analysis, wrong):
            return  # a standardization of the input signal over its positions, per sample
        if wrong:
            names = ", ".join(table.describe(a) for a in normalized)
            yield self.at(
                analysis, index,
                f"layer-norm statistics are taken over [{names}] of [{analysis.describe(source)}]: "
                f"{', '.join(table.describe(a) for a in wrong)} {'is not the feature axis' if len(wrong) == 1 else 'are not feature axes'}, so tokens "
                "(or samples) leak into each other's statistics",
                hint="normalize over the last (feature) axis only: nn.LayerNorm(d_model), mean(dim=-1, keepdim=True)",
                related=module_definition(analysis, module, "the norm made here") if module else (),
            )


def _input_itself(analysis, source) -> bool:
    """Whether `source` is a model input as given (or a view or cast of one): no layer has read it yet."""
    found = source_behind(analysis, source.vid)
    return found is not None and found.kind == "input"


def _attends_elsewhere(analysis, positions: list[int]) -> bool:
    """Whether the model attends, and never over these positions themselves (it attends over patches
    cut from them, or frames a front end made): the normalized input is a signal, not its tokens."""
    table = analysis.table
    attended = {table.find(table.base_of(block.key_axis)) for block in analysis.blocks if block.key_axis is not None}
    return bool(attended) and all(table.find(table.base_of(axis)) not in attended for axis in positions)
