"""shape-error: the forward pass raised; say which op, on which axes, and how to fix it."""

from __future__ import annotations

import math
from typing import Iterable

from ..findings import Finding
from .base import Check
from .operands import OPERATORS, call_arguments, operand_names, parenthesized

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
        names = _names(failed)
        operands = "; ".join(f"{name}: {analysis.describe(meta)}" for name, meta in zip(names, failed.inputs))
        yield self.at(
            analysis, failed.index,
            f"{failed.op} failed: {failed.error.splitlines()[0].rstrip('.')}. Operands: {operands}",
            hint=_hint(analysis, failed, names),
        )


def _names(event) -> list[str]:
    """The operands as the user wrote them where the op takes only tensors (`q @ q`: q and q), else numbered."""
    count = len(event.inputs)
    if event.op in PRODUCTS or event.op in OPERATORS:
        return operand_names(event.file, event.line, event.op, count)
    return [f"input {position}" for position in range(count)]


def _view_then_transpose(event) -> str | None:
    """`.view(B, T, 2, C // 2).transpose(1, 2)` for a view that tears its input's axes where the same
    sizes with two of them swapped would not (the heads asked for in front of the positions), else None."""
    before, after = tuple(event.inputs[0].shape), _requested(event)
    if after is None or not _tears(before, after):
        return None
    written = call_arguments(event.file, event.line, "view")
    sizes = written if written is not None and len(written) == len(after) else [str(size) for size in after]
    for first in range(len(after)):
        for second in range(first + 1, len(after)):
            swapped = list(after)
            swapped[first], swapped[second] = swapped[second], swapped[first]
            if not _tears(before, tuple(swapped)):
                shown = list(sizes)
                shown[first], shown[second] = shown[second], shown[first]
                return f".view({', '.join(shown)}).transpose({first}, {second})"
    return None


def _requested(event) -> tuple[int, ...] | None:
    """The sizes a view asked for (`-1` worked out), or None where they were not plain numbers."""
    sizes = list(event.args[1:])
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
        sizes = list(sizes[0])
    if not sizes or not all(isinstance(size, int) for size in sizes):
        return None
    known = math.prod(size for size in sizes if size != -1)
    if sizes.count(-1) == 1 and known:
        sizes = [event.inputs[0].numel // known if size == -1 else size for size in sizes]
    return tuple(sizes) if -1 not in sizes else None


def _tears(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Whether reshaping `before` to `after` cuts across its axes: some stretch of dims where
    several input dims become several output dims, rather than merging into one or splitting one."""
    old, new = [size for size in before if size != 1], [size for size in after if size != 1]
    if math.prod(old) != math.prod(new):
        return False
    i = j = 0
    while i < len(old) and j < len(new):
        left, right, taken_old, taken_new = old[i], new[j], 1, 1
        while left != right:
            if left < right:
                i += 1
                left, taken_old = left * old[i], taken_old + 1
            else:
                j += 1
                right, taken_new = right * new[j], taken_new + 1
        if taken_old > 1 and taken_new > 1:
            return True
        i, j = i + 1, j + 1
    return False


def _without_transpose(text: str) -> str | None:
    """`k` for `k.transpose(-2, -1)` (or `-1, -2`, `.mT`), None for an operand not transposed last."""
    for suffix in (".transpose(-2, -1)", ".transpose(-1, -2)", ".mT"):
        if text.endswith(suffix):
            return text[:-len(suffix)]
    return None


def _hint(analysis, event, names: list[str]) -> str:
    shapes = [m.shape for m in event.inputs]
    if event.op in ("matmul", "bmm", "mm") and len(shapes) >= 2 and len(shapes[0]) >= 2 and len(shapes[1]) >= 2:
        a, b = shapes[0], shapes[1]
        if a[-1] != b[-2] and a[-1] == b[-1]:
            untransposed = _without_transpose(names[1])
            if untransposed is not None:
                return f"the second operand is transposed already: did you mean {names[0]} @ {untransposed}?"
            return (f"did you mean `.transpose(-2, -1)` on the second operand? "
                    f"{names[0]} @ {parenthesized(names[1])}.transpose(-2, -1)")
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
            transposed = _view_then_transpose(event)
            if transposed is not None:
                return (f"this view would tear the axes of [{analysis.describe(event.inputs[0])}] into each other "
                        "(so would .reshape, which runs and silently mixes positions with features, the head-split "
                        f"bug): split in place, then transpose: {transposed}")
            return ("the element counts match, but view needs a contiguous input and this one was transposed or "
                    "permuted (or is a slice, e.g. of split()): use .reshape(...), or .contiguous().view(...)")
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
                            "broadcast as mask[:, None, None, :] against (B, H, Tq, Tk)")
                if role == "key":
                    return f"{said}: a mask over the keys must have length {sa}"
                return f"{said}: the two must have the same size there, or size 1"
    return "compare the operands' axes above"
