"""Outputs that are not finite only when the model runs untraced.

torch takes other paths when nothing watches: `nn.MultiheadAttention` and `nn.TransformerEncoderLayer`
run a fused kernel in eval mode without gradients, which turns a query whose every key is masked
into NaN, while the reference path the recorded pass takes returns zeros for it. The recorded pass
is then finite and the `nan` check has nothing to say, though the user's own inference is NaN.
The baseline every witness compares against is such an untraced run: when its outputs are not
finite and the recorded ones are, one more run with forward hooks names the first module that
turned finite inputs into NaN, and the finding stands where that module was called.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch
from torch import nn

from ..evidence.masks import pattern_of
from ..findings import Finding

MESSAGE = ("the model's outputs are NaN when it runs without attnscope (eval mode, no gradients), though the "
           "recorded pass was finite: this {type_name} turned finite inputs into NaN on the path torch takes "
           "untraced (its fused kernel){why}")
EMPTY_ROW = ": a query here has every key masked"


def nonfinite(outputs: list[tuple[str, torch.Tensor]]) -> bool:
    return any(value.is_floating_point() and not bool(torch.isfinite(value).all()) for _, value in outputs)


def recorded_finite(recording) -> bool:
    stats = [recording.stats_of(meta.vid) for meta in recording.outputs]
    return all(stat is None or not stat.nonfinite for stat in stats)


@contextmanager
def watched(model: nn.Module, found: list[str]):
    """Forward hooks that note each module whose inputs are finite and whose output is not, innermost first."""
    names = {module: name for name, module in model.named_modules()}

    def hook(module, args, output):
        tensors = [value for value in (output if isinstance(output, (tuple, list)) else (output,))
                   if isinstance(value, torch.Tensor) and value.is_floating_point()]
        inputs = [value for value in args if isinstance(value, torch.Tensor) and value.is_floating_point()]
        if not found and tensors and not all(bool(torch.isfinite(value).all()) for value in tensors) and \
                all(bool(torch.isfinite(value).all()) for value in inputs):
            found.append(names.get(module, ""))

    handles = [module.register_forward_hook(hook) for module in model.modules()]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()


def untraced_nan(analysis, path: str) -> Finding | None:
    """The finding at the call of the module at `path` (its first recorded op's line)."""
    from ..evidence.provenance import construction

    call = next((call for call in analysis.recording.module_calls if call.path == path), None)
    if call is None or call.first_event >= len(analysis.recording.events):
        return None
    event = analysis.recording.events[call.first_event]
    blocks = [block for block in analysis.blocks if call.first_event <= block.norm_event < call.end_event]
    empty = [use for block in blocks for use in block.masks
             if (pattern := pattern_of(analysis, block, use)) is not None and bool(pattern.hidden.all(-1).any())]
    related = construction(analysis, empty[0].mask.vid, "mask built here", call.first_event) \
        if empty and empty[0].mask is not None else ()
    return Finding(
        "fully-masked-row" if empty else "nan", "error",
        MESSAGE.format(type_name=call.type_name, why=EMPTY_ROW if empty else ""), event.file, event.line,
        call.path, event.op, analysis.node_ids[call.first_event], event=call.first_event, related=related,
        hint="give every query at least one visible key (its own, say), or drop the rows that have none",
    )
