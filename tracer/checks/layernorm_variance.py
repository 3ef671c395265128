"""layernorm-variance: the course's layer norm divides by d (not d-1) and puts eps inside the sqrt."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .layernorm import centrings, variances


SPREADS = ("var", "std", "var_mean", "std_mean")  # the ops that take a norm's spread in one call


class LayerNormVariance(Check):
    code = "layernorm-variance"
    severity = "warning"

    def run(self, analysis) -> Iterable[Finding]:
        flow = analysis.flow
        for centring in centrings(analysis):
            spreads = []  # variances and standard deviations of this norm
            for vid in (centring.source_vid, centring.centred_vid):
                for user, _ in flow.users(vid):
                    if user.op in SPREADS and user not in spreads:
                        spreads.append(user)
                        if _unbiased(user):
                            yield self.at(
                                analysis, user.index,
                                f"the layer norm's {user.op} is unbiased (divides by d-1); layer normalization "
                                "divides by d",
                                hint=f"torch.{user.op}(x, dim=-1, keepdim=True, correction=0)" if "_" in user.op
                                else f"x.{user.op}(dim=-1, keepdim=True, unbiased=False)",
                            )
            for variance in variances(analysis, centring):
                spreads.append(analysis.recording.events[variance.event])
                if variance.divisor is not None and variance.divisor == variance.count - 1:
                    yield self.at(
                        analysis, variance.event,
                        f"the layer norm's variance divides the squared deviations by d-1 = {variance.count - 1} "
                        f"(unbiased); layer normalization divides by d = {variance.count}",
                        hint="average the squared deviations: ((x - mean) ** 2).mean(dim=-1, keepdim=True)",
                    )
            for spread in spreads:
                roots = [spread] if spread.op in ("std", "std_mean") else [
                    root for root, _ in flow.users(spread.outputs[0].vid) if root.op == "sqrt"]
                for root in roots:
                    yield from self._eps_outside(analysis, root)

    def _eps_outside(self, analysis, root) -> Iterable[Finding]:
        for user, _ in analysis.flow.users(root.outputs[0].vid):
            if user.op == "add" and len(user.inputs) == 1:
                yield self.at(
                    analysis, user.index,
                    "eps is added outside the square root, (x - mean) / (sqrt(var) + eps); the layer norm "
                    "formula puts it inside: (x - mean) / sqrt(var + eps)",
                    hint="torch.sqrt(var + eps) (or torch.rsqrt(var + eps))",
                )


def _unbiased(event) -> bool:
    correction = event.kwargs.get("correction")
    if correction is not None:
        return correction != 0
    unbiased = event.kwargs.get("unbiased")
    if unbiased is None:
        unbiased = next((a for a in event.args[1:] if isinstance(a, bool)), True)
    return bool(unbiased)
