"""What each box says: op details in axis names, the roles ops play in attention blocks, masks.

A label names axes, not dims: "softmax over Tk=5", "contracts dh=8", "swap H ↔ T". The
attention blocks found by the analysis tell which product made the scores, which ops scale
and mask them, and which product applies the weights; those ops say so on the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..analysis import Analysis
from ..blocks import AttentionBlock, MaskUse
from ..events import TENSOR_SLOT, OpEvent, TensorMeta
from .mask_kinds import mask_kind

REDUCTIONS = frozenset({
    "sum", "mean", "amax", "amin", "max", "min", "var", "std", "logsumexp", "norm", "prod",
    "any", "all", "argmax", "argmin", "nansum", "nanmean", "median",
})
NORMALIZATIONS = frozenset({"softmax", "log_softmax", "_softmax", "layer_norm", "rms_norm"})
PRODUCTS = frozenset({"matmul", "rmatmul", "bmm", "mm", "einsum", "baddbmm", "linear"})
ROLE_WORDS = {"query": "queries", "key": "keys"}
SYMBOLS = {"eq": "==", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "add": "+", "sub": "−",
           "mul": "×", "div": "÷", "pow": "^", "rsub": "−", "remainder": "mod"}
QUIET_KWARGS = frozenset({"device", "layout", "pin_memory", "requires_grad", "out", "memory_format", "non_blocking"})
ROLE_MEANINGS = {"query": "query positions", "key": "key positions"}
KIND_WORDS = {
    "batch": "batch", "head": "heads", "feature": "features", "seq": "sequence positions",
    "pos": "positions", "merged": "flattened axes", "mixed": "torn: a reshape mixed two axes",
    "unknown": "meaning unknown", "one": "size-1 axis",
}


@dataclass(frozen=True)
class Role:
    """The part one event plays in one attention block."""

    name: str  # "scores", "scale", "mask", "normalize", "apply"
    block: AttentionBlock
    mask: MaskUse | None = None


def block_roles(blocks: list[AttentionBlock]) -> dict[int, Role]:
    """Event index -> its role; the first block to claim an event keeps it."""
    roles: dict[int, Role] = {}
    for block in blocks:
        if block.product_event is not None:
            roles.setdefault(block.product_event, Role("scores", block))
        for index in block.scale_events:
            roles.setdefault(index, Role("scale", block))
        for use in block.masks:
            roles.setdefault(use.event, Role("mask", block, use))
        roles.setdefault(block.norm_event, Role("normalize", block))
        if block.contraction_event is not None:
            roles.setdefault(block.contraction_event, Role("apply", block))
    return roles


def _number(value: float) -> str:
    if value == float("-inf"):
        return "−inf"
    if value == float("inf"):
        return "inf"
    if value != 0 and (abs(value) >= 1e4 or abs(value) < 1e-3):
        return f"{value:.0e}".replace("e+0", "e").replace("e-0", "e-").replace("-", "−")
    text = f"{value:.3g}"
    return text.replace("-", "−")


class Labeller:
    """Turns events into title and detail lines, reading axes from one analysis."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.table = analysis.table
        self.roles = block_roles(analysis.blocks)

    # ------------------------------------------------------------ axes
    def axes(self, meta: TensorMeta) -> tuple[int, ...]:
        return self.analysis.axes_of(meta)

    def value(self, meta: TensorMeta) -> str:
        """An edge label: `B=2 × T=5 × d=16`, with the dtype when it is not float32."""
        text = self.analysis.describe(meta)
        return text if meta.dtype in ("float32", "") else f"{text} · {meta.dtype}"

    def torn(self, meta: TensorMeta) -> bool:
        return any(self.table.get(a).kind == "mixed" for a in self.axes(meta))

    def dims(self, meta: TensorMeta, dims: tuple[int, ...] | list[int]) -> str:
        axes = self.axes(meta)
        return ", ".join(self.table.describe(axes[d]) for d in dims if 0 <= d < len(axes))

    def meanings(self, meta: TensorMeta) -> dict[str, str]:
        """Display name -> what the axis is, for the legend."""
        found = {}
        for axis in self.axes(meta):
            record = self.table.get(axis)
            meaning = ROLE_MEANINGS.get(record.role or "") or KIND_WORDS.get(record.kind, record.kind)
            if record.kind == "feature" and record.base is not None:
                meaning = "per-head features"
            found.setdefault(record.display, meaning)
        return found

    # ------------------------------------------------------------ events
    def title(self, event: OpEvent) -> str:
        role = self.roles.get(event.index)
        if role is not None and role.name == "mask":
            return f"mask · {event.op}"
        if role is not None and role.name == "scale":
            return f"scale · {event.op}"
        return event.op

    def lines(self, event: OpEvent) -> list[str]:
        role = self.roles.get(event.index)
        if role is not None and role.block.kind == "sdpa":
            return self.fused_lines(role.block)
        if role is not None:
            special = self._role_lines(event, role)
            if special:
                return special
        return self._op_lines(event)

    def _op_lines(self, event: OpEvent) -> list[str]:
        op, facts = event.op, self.analysis.facts.get(event.index)
        first = event.inputs[0] if event.inputs else None
        if first is None:
            return self._args_line(event)
        if op in NORMALIZATIONS or op in REDUCTIONS:
            if facts is not None and facts.normalized:
                dim = event.arg(1, "dim")
                where = f" (dim={dim})" if isinstance(dim, int) else ""
                return [f"over {self.dims(first, facts.normalized)}{where}"]
            return []
        if op in PRODUCTS:
            lines = [str(event.args[0])] if op == "einsum" and event.args and isinstance(event.args[0], str) else []
            if facts is not None and facts.contracted:
                position, dim = facts.contracted[0]
                if position < len(event.inputs):
                    lines.append(f"contracts {self.dims(event.inputs[position], [dim])}")
            return lines
        scalars = [v for v in event.args[1:] if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if op in SYMBOLS and len(event.inputs) == 1 and len(scalars) == 1:
            return [f"{SYMBOLS[op]} {self._arg_text(scalars[0])}"]
        if op in ("embedding", "linear", "layer_norm", "rms_norm", "group_norm", "batch_norm"):
            return []  # their arguments are the parameters, shown in the parameter band
        if op in ("dropout", "dropout1d", "dropout2d", "feature_alpha_dropout", "alpha_dropout"):
            p, training = event.arg(1, "p", 0.5), event.arg(2, "training", True)
            return [f"p={self._arg_text(p)}, " + ("active" if training else "inactive (eval)")]
        if op in ("transpose", "swapaxes"):
            a, b = event.arg(1, "dim0"), event.arg(2, "dim1")
            axes = self.axes(first)
            if isinstance(a, int) and isinstance(b, int) and axes:
                names = [self.table.get(axes[d % len(axes)]).display for d in (a, b)]
                return [f"swap {names[0]} ↔ {names[1]}"]
            return ["swap last two"] if not isinstance(a, int) else []
        return self._args_line(event)

    def _args_line(self, event: OpEvent) -> list[str]:
        """Non-tensor arguments, when short: `(2, 5, 16)`, `+ 1e-05`, `diagonal=1`; a tensor inside
        a list shows as its axes (`[B × T]`), a list of tensors as how many (`2 tensors`)."""
        parts = []
        for value in event.args:
            if isinstance(value, dict) and "slice" not in value:
                continue  # a tensor argument: drawn as an edge
            if event.op == "getitem" and isinstance(value, (list, tuple)):
                parts.append("[" + ", ".join(self._arg_text(v, event) for v in value) + "]")
                continue
            parts.append(self._arg_text(value, event))
        for name, value in sorted(event.kwargs.items()):
            if isinstance(value, dict) or value is None or name.startswith("_") or name in QUIET_KWARGS:
                continue
            parts.append(f"{name}={self._arg_text(value, event)}")
        text = ", ".join(p for p in parts if p)
        return [text] if text and len(text) <= 32 else ([text[:31] + "…"] if text else [])

    def _arg_text(self, value: object, event: OpEvent | None = None) -> str:
        if isinstance(value, dict):
            return self._dict_text(value, event)
        if isinstance(value, bool) or value is None:
            return str(value)
        if isinstance(value, float):
            return _number(value)
        if isinstance(value, (list, tuple)):
            if value and all(isinstance(v, dict) and TENSOR_SLOT in v for v in value):
                return f"{len(value)} tensors" if len(value) > 1 else self._arg_text(value[0], event)
            return "(" + ", ".join(self._arg_text(v, event) for v in value) + ")"
        return str(value)

    def _dict_text(self, value: dict, event: OpEvent | None) -> str:
        """A recorded stand-in as the reader knows it: a slice `1:4`, a tensor `[B × T]`, an object's type."""
        if "slice" in value:
            start, stop, step = (list(value["slice"]) + [None, None, None])[:3]
            text = ":".join("" if end is None else self._arg_text(end, event) for end in (start, stop))
            return text + (f":{self._arg_text(step, event)}" if step not in (None, 1) else "")
        if TENSOR_SLOT in value:
            slot = value[TENSOR_SLOT]
            if event is not None and isinstance(slot, int) and 0 <= slot < len(event.inputs):
                axes = self.axes(event.inputs[slot])
                return "[" + " × ".join(self.table.get(a).display for a in axes) + "]" if axes else "scalar tensor"
            return "tensor"
        if "object" in value:
            return str(value["object"])
        return "{" + ", ".join(f"{k}: {self._arg_text(v, event)}" for k, v in value.items()) + "}"

    # ------------------------------------------------------------ attention roles
    def _role_lines(self, event: OpEvent, role: Role) -> list[str]:
        block = role.block
        if role.name == "scores":
            return ["scores = Q·Kᵀ", *self._op_lines(event)]
        if role.name == "apply":
            return ["weights · V", *self._op_lines(event)]
        if role.name == "normalize":
            return [self.normalized(block)]
        if role.name == "scale":
            return self.scale_lines(event, block)
        if role.name == "mask" and role.mask is not None:
            return self.mask_lines(block, role.mask)
        return []

    def fused_lines(self, block: AttentionBlock) -> list[str]:
        """One fused attention call: what happens inside it, in the course's order."""
        lines = [f"softmax(Q·Kᵀ × {_number(block.scale)}" + (" + mask)" if block.masks else ")") + " · V"
                 if block.scale is not None else "softmax(Q·Kᵀ) · V"]
        lines.append(self.normalized(block))
        for use in sorted(block.masks, key=lambda u: u.event):
            along = self.mask_axes(use)
            lines.append(f"mask: {self.mask_kind(block, use)}" + (f" along {along}" if along else ""))
        return lines

    def normalized(self, block: AttentionBlock) -> str:
        """`over Tk=5 (keys)`: which axis the weights are normalized over."""
        if block.normalized_axis is None:
            return "over several axes"
        record = self.table.get(block.normalized_axis)
        word = ROLE_WORDS.get(record.role or "", KIND_WORDS.get(record.kind, record.kind))
        return f"over {self.table.describe(block.normalized_axis)} ({word})"

    def scale_lines(self, event: OpEvent, block: AttentionBlock) -> list[str]:
        """`× 0.354 = 1/√8`, or the factor next to the expected one."""
        factor = block.scale if len(block.scale_events) == 1 else None
        if factor is None and event.op in ("mul", "div"):
            value = event.arg(1, "other")
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value:
                factor = 1 / value if event.op == "div" else float(value)
        if factor is None:
            return []
        line = f"× {_number(factor)}"
        d_k = block.contracted_size
        if d_k and math.isclose(factor, 1 / math.sqrt(d_k), rel_tol=1e-3):
            return [f"{line} = 1/√{d_k}"]
        return [line, f"(1/√d_k = {_number(1 / math.sqrt(d_k))})"] if d_k else [line]

    def mask_lines(self, block: AttentionBlock, use: MaskUse) -> list[str]:
        """`causal + padding over keys`, `along B, Tk`, `fill −inf`: kind, axes and how it hides."""
        lines = [self.mask_kind(block, use) + (" (after softmax)" if use.after else "")]
        along = self.mask_axes(use)
        if along:
            lines.append(f"along {along}")
        how = {"fill": "fill", "where": "where →", "additive": "add", "multiply": "× 0/1"}.get(use.kind)
        if how and use.fill is not None and use.kind != "multiply":
            lines.append(f"{how} {_number(use.fill)}")
        elif how == "× 0/1":
            lines.append(how)
        if use.discarded:
            lines.append("result discarded")
        return lines

    def mask_kind(self, block: AttentionBlock, use: MaskUse) -> str:
        """What the mask is, part by part (see `mask_kinds`)."""
        return mask_kind(self.analysis, block, use)

    def mask_axes(self, use: MaskUse) -> str:
        """The score-table axes the mask varies along (its dims of size > 1, aligned right)."""
        if use.kind == "is_causal":
            dims = [len(use.axes) - 2, len(use.axes) - 1]
        elif use.mask is not None and use.axes:
            offset = len(use.axes) - len(use.mask.shape)
            dims = [offset + d for d, size in enumerate(use.mask.shape) if size > 1 and offset + d >= 0]
        else:
            return ""
        return ", ".join(self.table.get(use.axes[d]).display for d in dims if 0 <= d < len(use.axes))
