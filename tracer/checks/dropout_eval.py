"""dropout-eval: a dropout that stays active while its module is in eval mode makes inference random."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check

DROPOUTS = {"dropout": (1, "p", 2, "training"), "alpha_dropout": (1, "p", 2, "training"),
            "feature_alpha_dropout": (1, "p", 2, "training"), "dropout1d": (1, "p", 2, "training"),
            "dropout2d": (1, "p", 2, "training"), "dropout3d": (1, "p", 2, "training"),
            "scaled_dot_product_attention": (4, "dropout_p", None, None)}


class DropoutEval(Check):
    code = "dropout-eval"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        calls = {call.index: call for call in analysis.recording.module_calls}
        for event in analysis.recording.events:
            spec = DROPOUTS.get(event.op)
            call = calls.get(event.module_call)
            made_here = spec is not None and call is not None and call.training and _made_in_forward(call, calls)
            if made_here:
                call = calls[call.parent]  # `nn.Dropout(p)(x)` in a forward: a new module, in training mode
            if spec is None or call is None or call.training:
                continue
            p_position, p_name, flag_position, flag_name = spec
            p = event.arg(p_position, p_name, 0.5 if flag_name else 0.0)
            active = event.arg(flag_position, flag_name, True) if flag_name else True
            if isinstance(p, (int, float)) and p > 0 and active is True:
                yield self.at(
                    analysis, event.index,
                    f"{event.op} with p={p} is active although {call.path or 'the model'} "
                    f"({call.type_name}) is in eval mode: inference is random",
                    hint="build the nn.Dropout once in __init__, where .eval() reaches it" if made_here else
                         "pass training=self.training (or use nn.Dropout, which follows .eval())",
                )


def _made_in_forward(call, calls) -> bool:
    """A module that is no part of the model: built during the forward pass and called at once
    (the recorder names such a module after its type, under its caller). Its mode is not the
    model's: `.eval()` never reached it."""
    parent = calls.get(call.parent) if call.parent is not None else None
    return parent is not None and call.path == f"{parent.path}.{call.type_name}".lstrip(".")

