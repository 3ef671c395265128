"""shape-error: the forward pass raised; say which op, on which axes, and how to fix it."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check

PRODUCTS = ("matmul", "bmm", "mm", "einsum", "baddbmm")


class ShapeError(Check):
    code = "shape-error"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        recording = analysis.recording
        if recording.error is None:
            return
        failed = next((e for e in reversed(recording.events) if e.error), None)
        if failed is None:
            yield Finding(
                code=self.code, severity=self.severity, message=f"the forward pass raised {recording.error}",
                file=recording.error_file, line=recording.error_line, module="", op="", node="",
            )
            return
        names = "qkvmw"
        operands = "; ".join(
            f"{names[i] if len(failed.inputs) <= 3 and failed.op in PRODUCTS else f'input {i}'}: "
            f"{analysis.describe(meta)}"
            for i, meta in enumerate(failed.inputs)
        )
        yield self.at(
            analysis, failed.index,
            f"{failed.op} failed: {failed.error.splitlines()[0].rstrip('.')}. Operands: {operands}",
            hint=_hint(analysis, failed),
        )


def _hint(analysis, event) -> str:
    shapes = [m.shape for m in event.inputs]
    if event.op in ("matmul", "bmm", "mm") and len(shapes) >= 2 and len(shapes[0]) >= 2 and len(shapes[1]) >= 2:
        a, b = shapes[0], shapes[1]
        if a[-1] != b[-2] and a[-1] == b[-1]:
            return "did you mean `.transpose(-2, -1)` on the second operand (the keys)? scores = q @ k.transpose(-2, -1)"
        return f"the inner sizes must agree: {a[-1]} (last of the first) vs {b[-2]} (second-to-last of the second)"
    if event.op == "linear" and len(shapes) >= 2:
        if len(shapes[0]) >= 4:
            return "the heads are not merged back: out.transpose(1, 2).reshape(B, T, d) before the output projection"
        return f"the input has {shapes[0][-1]} features but the layer expects {shapes[1][-1]}"
    if event.op == "masked_fill" and "boolean" in (event.error or ""):
        return "masked_fill takes a boolean mask (uint8 masks stopped working in torch 1.2): pass mask.bool()"
    if event.op in ("view", "reshape"):
        elements = event.inputs[0].numel if event.inputs else None
        if event.op == "view" and "stride" in (event.error or "") and elements is not None:
            return ("the element counts match, but view needs a contiguous input and this one was transposed or "
                    "permuted: use .reshape(...), or .contiguous().view(...)")
        return "the new shape must hold exactly as many elements as the input: check the head count and d_model"
    if len(shapes) >= 2:
        table = analysis.table
        for i in range(1, min(len(shapes[0]), len(shapes[1])) + 1):
            sa, sb = shapes[0][-i], shapes[1][-i]
            if sa != sb and 1 not in (sa, sb):
                first, second = analysis.axes_of(event.inputs[0])[-i], analysis.axes_of(event.inputs[1])[-i]
                said = f"dimension -{i} is {table.describe(first)} in one operand but {table.describe(second)} in the other"
                role = table.get(first).role
                if role == "query" and event.op in ("masked_fill", "where", "add"):
                    return (f"{said}: this mask lies along the queries; a padding mask goes over the keys, "
                            "broadcast as mask[:, None, None, :] against (B, H, T_q, T_k)")
                if role == "key":
                    return f"{said}: a mask over the keys must have length {sa}"
                return f"{said}: the two must have the same size there, or size 1"
    return "compare the operands' axes above"
