"""Attention blocks, found on the recording whatever the coding style.

A block is a normalization (a library softmax, a hand-written exp / sum / divide, or a
fused `scaled_dot_product_attention`) whose weights are then contracted against values.
Around it, the block collects what the checks need: the score table's axes, which axis
was normalized and which was contracted, the query-key product and its scale, and every
mask applied before or after the normalization.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import torch

from .axes import AxisTable
from .dataflow import Dataflow
from .events import TENSOR_SLOT, OpEvent, TensorMeta
from .rules import OpFacts

PRODUCTS = frozenset({"matmul", "rmatmul", "bmm", "mm", "einsum", "baddbmm"})
CONTRACTIONS = frozenset({"matmul", "rmatmul", "bmm", "mm", "einsum"})
LAYOUT_OPS = frozenset({
    "transpose", "permute", "movedim", "t", "view", "reshape", "contiguous", "clone", "to", "type", "type_as", "float", "half",
    "bfloat16", "double", "unsqueeze", "squeeze", "expand", "detach", "flatten", "unflatten", "_unsafe_view",
    "view_as", "reshape_as",
})
AFTER_NORMALIZATION = LAYOUT_OPS | {"dropout", "masked_fill", "where", "mul", "div", "nan_to_num", "getitem", "setitem"}
HIDING_THRESHOLD = -1e3  # an additive mask entry below this hides its key


@dataclass
class MaskUse:
    """One application of a mask to the scores (or, when `after`, to the weights)."""

    event: int
    kind: str  # "fill", "where", "additive", "multiply", "attn_mask" or "is_causal"
    after: bool
    mask: TensorMeta | None = None
    fill: float | None = None  # the value written into hidden places, where one is written
    hidden: torch.Tensor | None = None  # bool over `shape`, True where a key is hidden
    shape: tuple[int, ...] = ()
    axes: tuple[int, ...] = ()  # axes of the table the mask was applied to
    discarded: bool = False  # a masked_fill whose result nobody used


@dataclass
class AttentionBlock:
    index: int
    kind: str  # "softmax", "handwritten" or "sdpa"
    norm_event: int
    module: str
    table_shape: tuple[int, ...]
    table_axes: tuple[int, ...]
    dtype: str
    normalized_axis: int | None
    contracted_axes: tuple[int, ...] = ()
    contraction_event: int | None = None
    product_event: int | None = None
    contracted_size: int | None = None  # d_k
    rank: int | None = None  # the query-key form's width where a weight was absorbed into q or k (MLA's decode), else d_k
    scale: float | None = 1.0  # None when some factor is not a known number
    scale_events: list[int] = field(default_factory=list)
    term_widths: list[int] = field(default_factory=list)  # contracted sizes of products added to the scores
    masks: list[MaskUse] = field(default_factory=list)
    renormalized: bool = False
    exp_event: int | None = None
    max_subtracted: bool = True
    scores: TensorMeta | None = None
    weights: TensorMeta | None = None
    dim_event: int | None = None  # the op whose `dim` chose the normalized axis (softmax, or the sum)
    query_axis: int | None = None  # the score product's rows
    key_axis: int | None = None  # ... and columns: what the block attends over
    unread: list[int] = field(default_factory=list)  # events whose operand may be a mask, not kept (budget)
    by_agreement: bool = False  # routing by agreement: the next scores are these plus a term of this block's output

    @property
    def score_terms(self) -> int:
        """Products summed into the scores (DeBERTa's content and two relative terms: 3)."""
        return 1 + len(self.term_widths)

    @property
    def ends(self) -> tuple[int, ...]:
        return tuple(axis for axis in (self.query_axis, self.key_axis) if axis is not None)

    @property
    def elements(self) -> int:
        return math.prod(self.table_shape)

    def dim_of(self, table: AxisTable, axis: int | None, axes: tuple[int, ...] | None = None) -> int | None:
        if axis is None:
            return None
        for dim, candidate in enumerate(axes if axes is not None else self.table_axes):
            if table.same(candidate, axis):
                return dim
        return None


# Ops that bound each score by a number (a floor under the scores after an additive mask, a soft cap's
# clip): they keep the scores where they were, so what was added before them is still seen.
BOUNDS = frozenset({"max", "maximum", "fmax", "min", "minimum", "fmin", "clamp", "clamp_min", "clamp_max", "clip"})


# Ops between an exp and the weights it makes, entry by entry: masks, and the shift and rectification of a
# softmax variant (softpick). `sub` is followed through its first operand only: exp(x) - 1.
AFTER_EXP = frozenset({"masked_fill", "mul", "where", "relu", "abs", "sub", "clamp", "clamp_min"})


class BlockFinder:
    """Walks the dataflow around each normalization to assemble its block."""

    def __init__(self, flow: Dataflow, table: AxisTable, axes: dict[int, tuple[int, ...]], facts: dict[int, OpFacts]):
        self.flow, self.table, self.axes, self.facts = flow, table, axes, facts
        self.events = flow.recording.events
        self._dropped = set(flow.recording.dropped)
        self._pending_unread: list[int] = []  # `unread` of the block being built

    def find(self) -> list[AttentionBlock]:
        blocks: list[AttentionBlock] = []
        for event in self.events:
            block, self._pending_unread = None, []
            if event.op == "softmax" and event.outputs:
                block = self._library_softmax(event)
            elif event.op == "div" and event.outputs:
                block = self._handwritten_softmax(event)
            elif event.op == "scaled_dot_product_attention" and event.outputs:
                block = self._sdpa(event)
            if block is not None:
                block.index, block.unread = len(blocks), list(dict.fromkeys(self._pending_unread))
                blocks.append(block)
        self._mark_agreement(blocks)
        return blocks

    def _mark_agreement(self, blocks: list[AttentionBlock]) -> None:
        """Routing by agreement (capsules, MIND's interests): logits updated as `b = b + agreement`, the
        agreement made from the weighted sum these logits gave. The softmax there makes outputs compete
        for each input, over whichever axis the algorithm chose, and the logits are no scaled q·k."""
        by_scores = {block.scores.vid: block for block in blocks if block.scores is not None}
        for block in blocks:
            if block.scores is None or block.contraction_event is None:
                continue
            result = self.events[block.contraction_event].outputs[0].vid
            for user, position in self.flow.users(block.scores.vid):
                following = by_scores.get(user.outputs[0].vid) if user.op == "add" and user.outputs else None
                others = [meta.vid for slot, meta in enumerate(user.inputs) if slot != position]
                if following is not None and others and result in set(self.flow.ancestors(*others, limit=400)):
                    block.by_agreement = following.by_agreement = True

    # ------------------------------------------------------------ normalizations
    def _new_block(self, kind: str, event: OpEvent, scores: TensorMeta, dims: tuple[int, ...]) -> AttentionBlock:
        axes = self.axes.get(scores.vid, ())
        normalized = axes[dims[0]] if len(dims) == 1 and axes else None
        return AttentionBlock(
            index=0, kind=kind, norm_event=event.index, module=event.module, table_shape=scores.shape,
            table_axes=axes, dtype=scores.dtype, normalized_axis=normalized, scores=scores,
            weights=event.outputs[0],
        )

    def _library_softmax(self, event: OpEvent) -> AttentionBlock | None:
        contraction = self._contraction_after(event.outputs[0])
        if contraction is None:
            return None
        block = self._new_block("softmax", event, event.inputs[0], self.facts[event.index].normalized)
        block.dim_event = event.index
        self._finish(block, contraction, event.inputs[0])
        return block

    def _handwritten_softmax(self, event: OpEvent) -> AttentionBlock | None:
        if len(event.inputs) < 2:
            return None
        numerator, denominator = event.inputs[0], event.inputs[1]
        total = self.flow.made_by(denominator.vid)
        while total is not None and total.op in ("clamp", "add", "unsqueeze", "to", "float"):
            total = self.flow.made_by(total.inputs[0].vid)
        if total is None or total.op != "sum":
            return None
        exp, summed = self._exp_behind(numerator.vid), self._exp_behind(total.inputs[0].vid)
        if exp is None or summed is None or exp.inputs[0].vid != summed.inputs[0].vid:
            return None  # exp(s) / exp(s).sum(): one exp or two of the same scores
        contraction = self._contraction_after(event.outputs[0])
        if contraction is None:
            return None
        scores = exp.inputs[0]
        shifted = self.flow.made_by(scores.vid)
        max_subtracted = False
        if shifted is not None and shifted.op == "sub" and len(shifted.inputs) == 2 and \
                self._row_peak(shifted.inputs[1], through=("detach", "getitem", "masked_fill", "unsqueeze", "clamp",
                                                             "clamp_min")):
            max_subtracted = True
            scores = shifted.inputs[0]
        block = self._new_block("handwritten", event, scores, self.facts[total.index].normalized)
        block.exp_event, block.max_subtracted, block.dim_event = exp.index, max_subtracted, total.index
        self._finish(block, contraction, scores)
        return block

    def _exp_behind(self, vid: int) -> OpEvent | None:
        """The exp that made `vid`, through the masks applied to its output and what keeps it a weight per
        entry (softpick's `relu(exp(x) - 1)` over `sum(|exp(x) - 1|)`)."""
        event = self.flow.made_by(vid)
        while event is not None and event.op in AFTER_EXP and event.inputs:
            event = self.flow.made_by(event.inputs[0].vid)
        return event if event is not None and event.op == "exp" and event.inputs else None

    def _sdpa(self, event: OpEvent) -> AttentionBlock:
        q, k = event.inputs[0], event.inputs[1]
        out_axes = self.axes.get(event.outputs[0].vid, ())
        key_axis = self.table.role_copy(self.axes[k.vid][-2], "key", event.index)
        table_axes = out_axes[:-1] + (key_axis,)
        block = AttentionBlock(
            index=0, kind="sdpa", norm_event=event.index, module=event.module,
            table_shape=q.shape[:-1] + (k.shape[-2],), table_axes=table_axes, dtype=q.dtype,
            normalized_axis=key_axis, contracted_axes=(key_axis,), contraction_event=event.index,
            product_event=event.index, contracted_size=q.shape[-1], query_axis=out_axes[-2] if out_axes else None,
            key_axis=key_axis,
        )
        explicit = self.flow.scalar(event, 6, "scale")
        block.scale = explicit if explicit is not None else 1 / math.sqrt(q.shape[-1])
        for operand in (q, k):
            self._folded_scale(block, operand)
        mask = event.tensor_arg(3, "attn_mask")
        if mask is not None:
            use = MaskUse(event.index, "attn_mask", False, mask=mask, shape=block.table_shape, axes=table_axes)
            value = self.flow.value(mask)
            if value is not None:
                hidden = ~value if value.dtype == torch.bool else value < HIDING_THRESHOLD
                use.hidden = _broadcast(hidden, block.table_shape)
            added = self._additive(event, mask, False, block.table_shape, table_axes) \
                if value is not None and value.is_floating_point() else None
            if added is not None and added.fill is not None and added.fill >= 0:
                use = added  # a float mask is added to the scores: a 0/1 one hides nothing
            block.masks.append(use)
        if event.arg(5, "is_causal") is True:
            hidden = _later_keys(block.table_shape[-2], block.table_shape[-1])
            block.masks.append(MaskUse(event.index, "is_causal", False, hidden=_broadcast(hidden, block.table_shape),
                                       shape=block.table_shape, axes=table_axes))
        return block

    # ------------------------------------------------------------ around the normalization
    def _contraction_after(self, weights: TensorMeta) -> tuple[OpEvent, int, list[int]] | None:
        """The first product the weights (or what was made of them) enter, with the ops between."""
        frontier: list[tuple[int, list[int]]] = [(weights.vid, [])]
        seen = set()
        while frontier:
            vid, chain = frontier.pop(0)
            for user, position in self.flow.users(vid):
                if user.index in seen:
                    continue
                seen.add(user.index)
                if user.op in CONTRACTIONS and self._mixes_heads(user):
                    frontier.append((user.outputs[0].vid, chain + [user.index]))  # talking heads: maps stay maps
                    continue
                if user.op in CONTRACTIONS:
                    return user, position, chain
                summed = self._weighted_sum(user, position) if user.op == "mul" else None
                if summed is not None:
                    return summed, 0, chain + [user.index]
                if user.op in AFTER_NORMALIZATION and len(chain) < 10 and user.outputs:
                    if user.op == "div" and position != 0:
                        continue
                    frontier.append((user.outputs[0].vid, chain + [user.index]))
        return None

    def _weighted_sum(self, product: OpEvent, position: int) -> OpEvent | None:
        """`(weights.unsqueeze(-1) * values).sum(dim)`: a contraction written as a broadcast product
        summed over the weights' dim (additive attention often does this). The product must bring
        dims of its own (the values' features); weights times a mask of their own shape is a mask."""
        if len(product.inputs) != 2 or not product.outputs:
            return None
        if math.prod(product.outputs[0].shape) <= math.prod(product.inputs[position].shape):
            return None
        vid = product.outputs[0].vid
        for _ in range(4):
            users = self.flow.users(vid)
            if len(users) != 1:
                return None
            user, _ = users[0]
            if user.op == "sum" and self.facts[user.index].normalized:
                return user
            if user.op not in LAYOUT_OPS or not user.outputs:
                return None
            vid = user.outputs[0].vid
        return None

    def _finish(self, block: AttentionBlock, contraction: tuple[OpEvent, int, list[int]], scores: TensorMeta) -> None:
        event, position, chain = contraction
        block.contraction_event = event.index
        operand = event.inputs[position]
        operand_axes = self.axes.get(operand.vid, ())
        contracted = self.facts[event.index].contracted if event.op != "sum" else \
            [(0, dim) for dim in self.facts[event.index].normalized]
        block.contracted_axes = tuple(
            operand_axes[dim] for pos, dim in contracted if pos == position and dim < len(operand_axes)
        )
        self._masks_after(block, chain)
        self._walk_back(block, scores.vid)
        if block.key_axis is None and block.contracted_axes:
            block.key_axis = block.contracted_axes[0]

    def _masks_after(self, block: AttentionBlock, chain: list[int]) -> None:
        masked = False
        for index in chain:
            event = self.events[index]
            use = self._mask_use(event, after=True, main=None)
            if use is not None:
                block.masks.append(use)
                masked = True
            elif event.op == "div" and masked and len(event.inputs) == 2:
                divisor = self.flow.made_by(event.inputs[1].vid)
                if divisor is not None and divisor.op in ("sum", "clamp", "add"):
                    block.renormalized = True

    def _walk_back(self, block: AttentionBlock, vid: int) -> None:
        for _ in range(16):
            event = self.flow.made_by(vid)
            if event is None:
                return
            if event.op in PRODUCTS and self._mixes_heads(event):
                vid = event.inputs[0].vid  # talking heads before the softmax: score tables mixed across heads
                continue
            if event.op in PRODUCTS:
                if not self._projection(event):
                    self._product(block, event)
                return
            main = 0 if event.op in LAYOUT_OPS and event.inputs else self._main_operand(event)
            if main is None:
                return
            if event.op not in LAYOUT_OPS and event.op not in ("dropout",):
                if not self._scale_step(block, event, main):
                    use = self._mask_use(event, after=False, main=main)
                    if use is not None:
                        block.masks.append(use)
                    elif event.op in BOUNDS and all(math.prod(meta.shape) == 1 for slot, meta in
                                                    enumerate(event.inputs) if slot != main):
                        pass  # the scores kept above a floor (`torch.max(scores, finfo.min)` after a mask): passed over
                    elif event.op not in ("add", "sub"):  # an added bias (positions, ALiBi) is passed over
                        return
                    elif len(event.inputs) == 2:  # relative-position scores (q against position keys) add terms
                        block.term_widths += self._products_behind(event.inputs[1 - main].vid)
            vid = event.inputs[main].vid

    def _projection(self, event: OpEvent) -> bool:
        """A product with a learned weight (`tanh(W [s; h]) @ v` in additive attention) projects
        features to a score; it is no query-key product, and no 1/sqrt(d_k) belongs to it."""
        sources = self.flow.recording.sources
        return any(len(meta.shape) == 1 or getattr(sources.get(meta.vid), "kind", None) == "param"
                   for meta in event.inputs)

    def _product(self, block: AttentionBlock, event: OpEvent) -> None:
        block.product_event = event.index
        facts = self.facts[event.index]
        block.query_axis, block.key_axis = facts.query, facts.key
        for position, dim in facts.contracted[:1]:
            block.contracted_size = event.inputs[position].shape[dim]
        block.rank = self._rank(event)
        operands = [p for p, _ in facts.contracted]
        if event.op == "baddbmm":
            block.scale = _times(block.scale, self.flow.scalar(event, 4, "alpha") or 1.0)
            added = event.inputs[0]
            if math.prod(added.shape) > 1:
                use = self._additive(event, added, after=False)
                if use is not None:
                    block.masks.append(use)
        for position in sorted(set(operands)):
            self._folded_scale(block, event.inputs[position])

    def _folded_scale(self, block: AttentionBlock, operand: TensorMeta) -> None:
        """A scale multiplied into q or k before their product (`q = q * d_k ** -0.5`)."""
        vid = operand.vid
        for _ in range(8):
            event = self.flow.made_by(vid)
            if event is None or not event.inputs:
                return
            if event.op in ("mul", "div") and len(event.inputs) <= 2:
                main = self._main_operand(event)
                if main is not None and (unquantized := self._dequantized(event, main)) is not None:
                    vid = unquantized  # round(x / s) * s is x on a grid: no factor
                    continue
                if main is None or not (self._scale_step(block, event, main) or self._zeroed(event, main)):
                    return
                vid = event.inputs[main].vid
            elif event.op in LAYOUT_OPS or event.op == "mean":  # a mean (Nyström's landmarks) keeps a factor
                vid = event.inputs[0].vid
            elif event.op == "add" and (rotated := self._rotated(event)) is not None:
                vid = rotated  # a rotation keeps the norm: a scale applied before rotary is still the scale
            else:
                return

    def _zeroed(self, event: OpEvent, main: int) -> bool:
        """A product with a 0/1 mask (padding zeroed before the scale): it keeps any factor."""
        if event.op != "mul" or len(event.inputs) != 2:
            return False
        mask = self.flow.value(event.inputs[1 - main])
        return mask is not None and bool(((mask == 0) | (mask == 1)).all())

    def _rotated(self, event: OpEvent) -> int | None:
        """The value a rotary embedding rotates, `x * cos + rotate_half(x) * sin`: the operand of the
        first product that is not a cos/sin table, or None for any other sum."""
        made = self.flow.made_by(event.inputs[0].vid) if len(event.inputs) == 2 else None
        second = self.flow.made_by(event.inputs[1].vid) if len(event.inputs) == 2 else None
        if made is None or second is None or made.op != "mul" or second.op != "mul" or len(made.inputs) != 2:
            return None
        tables = [self._trigonometric(meta.vid) for meta in made.inputs]
        if tables.count(True) != 1 or not any(self._trigonometric(meta.vid) for meta in second.inputs):
            return None
        return made.inputs[tables.index(False)].vid

    def _trigonometric(self, vid: int, depth: int = 6) -> bool:
        """A cos or sin table, as given or cut, broadcast and converted."""
        event = self.flow.made_by(vid)
        if event is None or depth == 0:
            return False
        if event.op in ("cos", "sin"):
            return True
        return bool(event.inputs) and (event.op in LAYOUT_OPS or event.op in ("getitem", "mul")) and \
            self._trigonometric(event.inputs[0].vid, depth - 1)

    def _main_operand(self, event: OpEvent) -> int | None:
        """The input carrying the scores (the other inputs are masks or scales)."""
        candidates = [i for i, m in enumerate(event.inputs) if m.shape == event.outputs[0].shape]
        if event.op == "where" and len(event.inputs) >= 2:
            candidates = [i for i in candidates if i != 0] or candidates
        if event.op == "masked_fill":
            return 0
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        for i in candidates:
            if self._reaches_product(event.inputs[i].vid, 12):
                return i
        return candidates[0]

    def _mixes_heads(self, event: OpEvent) -> bool:
        """A product that contracts the heads (einsum 'bhij,hg->bgij'): a mix of whole attention maps
        across heads (talking heads, re-attention), not a query-key or weights-values product."""
        for position, dim in self.facts[event.index].contracted:
            axes = self.axes.get(event.inputs[position].vid, ())
            if dim < len(axes) and self.table.get(axes[dim]).kind == "head":
                return True
        return False

    def _products_behind(self, vid: int, depth: int = 6) -> list[int]:
        """The widths of the products summed into a value added to the scores ([] for a plain bias):
        DeBERTa's relative terms, MLA's decoupled rope term."""
        event = self.flow.made_by(vid)
        if event is None or depth == 0:
            return []
        if event.op in PRODUCTS:
            return [self._rank(event) or 0]
        if event.op in ("add", "sub"):
            return [width for meta in event.inputs for width in self._products_behind(meta.vid, depth - 1)]
        if event.op in LAYOUT_OPS | {"gather", "div", "mul", "getitem", "index_select", "take_along_dim"}:
            return self._products_behind(event.inputs[0].vid, depth - 1) if event.inputs else []
        return []

    def _rank(self, event: OpEvent) -> int | None:
        """The width of a query-key product's bilinear form: its contracted size, or less where q or k
        was made by a weight from fewer features (`q_nope @ W_uk`: the decode of MLA absorbs W_uk, so
        the scores are those of the d_nope-wide product it replaces)."""
        contracted = self.facts[event.index].contracted if event.index in self.facts else []
        if not contracted:
            return None
        width = event.inputs[contracted[0][0]].shape[contracted[0][1]]
        for position, _ in contracted:
            absorbed = self._absorbed_from(event.inputs[position].vid)
            if absorbed is not None:
                width = min(width, absorbed)
        return width

    def _absorbed_from(self, vid: int, depth: int = 6) -> int | None:
        """The width a weight product expanded a value from, looking through layout ops, or None."""
        sources = self.flow.recording.sources
        for _ in range(depth):
            event = self.flow.made_by(vid)
            if event is None or not event.inputs:
                return None
            if event.op in LAYOUT_OPS:
                vid = event.inputs[0].vid
                continue
            if event.op not in CONTRACTIONS or event.index not in self.facts:
                return None
            weights = [p for p, meta in enumerate(event.inputs) if getattr(sources.get(meta.vid), "kind", None) == "param"]
            contracted = self.facts[event.index].contracted
            if len(weights) != 1 or not contracted:
                return None
            inner = event.inputs[contracted[0][0]].shape[contracted[0][1]]
            return inner if inner < event.outputs[0].shape[-1] else None
        return None

    def _reaches_product(self, vid: int, depth: int) -> bool:
        event = self.flow.made_by(vid)
        if event is None or depth == 0:
            return False
        if event.op in PRODUCTS:
            return True
        return any(self._reaches_product(m.vid, depth - 1) for m in event.inputs[:2])

    def _dequantized(self, event: OpEvent, main: int) -> int | None:
        """`x` where `event` is the `* s` of a fake quantization, `round(x / s).clamp(...) * s`, else None."""
        if event.op != "mul" or len(event.inputs) != 2:
            return None
        step = self.flow.made_by(event.inputs[main].vid)
        while step is not None and step.op in ("clamp", "clip", "clamp_min", "clamp_max") and step.inputs:
            step = self.flow.made_by(step.inputs[0].vid)
        if step is None or step.op not in ("round", "floor", "ceil", "trunc") or not step.inputs:
            return None
        divided = self.flow.made_by(step.inputs[0].vid)
        scale = event.inputs[1 - main].vid
        if divided is None or divided.op != "div" or len(divided.inputs) != 2 or divided.inputs[1].vid != scale:
            return None
        return divided.inputs[0].vid

    def _scale_step(self, block: AttentionBlock, event: OpEvent, main: int) -> bool:
        """Fold a multiplication or division by a number into `block.scale`; False if not one."""
        if event.op not in ("mul", "div") or main != 0 and event.op == "div":
            return False
        if len(event.inputs) == 1:
            factor = self.flow.scalar(event, 1, "other")
            if factor is None:
                return False
        else:
            other = event.inputs[1 - main]
            per_head = len(other.shape) >= 2 and other.shape[-2:] == (1, 1)  # (H, 1, 1): one factor per head
            if other.numel != 1 and not per_head:
                return False
            # a learned temperature (a parameter, or made from one): its value says nothing about the formula
            factor = None if self._learned(other.vid) else self.flow.constant(other)
            if factor is None and not self._learned(other.vid) and other.numel != 1:
                return False
        if event.op == "div":
            factor = 1 / factor if factor else None
        block.scale = _times(block.scale, factor)
        block.scale_events.append(event.index)
        return True

    def _learned(self, vid: int, depth: int = 4) -> bool:
        """Whether a value is a parameter or was computed from one a few ops back (`logit_scale.exp()`)."""
        source = self.flow.recording.sources.get(vid)
        if source is not None:
            return source.kind == "param"
        event = self.flow.made_by(vid)
        return event is not None and depth > 0 and any(self._learned(m.vid, depth - 1) for m in event.inputs)

    # ------------------------------------------------------------ masks
    def _mask_use(self, event: OpEvent, after: bool, main: int | None) -> MaskUse | None:
        axes = self.axes.get(event.outputs[0].vid, ()) if event.outputs else ()
        shape = event.outputs[0].shape if event.outputs else ()
        if event.op == "masked_fill":
            mask = event.tensor_arg(1, "mask")
            fill = self.flow.scalar(event, 2, "value")
            use = MaskUse(event.index, "fill", after, mask=mask, fill=fill, shape=shape, axes=axes,
                          discarded=not event.inplace and not self.flow.users(event.outputs[0].vid))
            value = self.flow.value(mask) if mask is not None else None
            use.hidden = _broadcast(value.bool(), shape) if value is not None else None
            return use
        if event.op == "setitem" and len(event.args) >= 3:
            return self._assigned(event, after, shape, axes)
        if event.op == "where" and len(event.inputs) >= 2:
            condition = event.tensor_arg(0, "condition")
            if condition is None:
                return None
            # where(condition, scores, fill) keeps the scores where True; where(condition, fill, scores) hides them
            other = event.arg(2, "other")
            scores_first = not (main is not None and isinstance(other, dict) and other.get(TENSOR_SLOT) == main)
            fill = self.flow.scalar(event, 2, "other") if scores_first else self.flow.scalar(event, 1, "input")
            value = self.flow.value(condition)
            hidden = None
            if value is not None:
                hidden = _broadcast(~value.bool() if scores_first else value.bool(), shape)
            return MaskUse(event.index, "where", after, mask=condition, fill=fill, hidden=hidden, shape=shape, axes=axes)
        if event.op in ("add", "sub") and len(event.inputs) == 2 and not after:
            other = event.inputs[1 - (main or 0)]
            if event.op == "sub" and self._row_peak(other):
                return None  # scores - scores.amax(-1): the softmax made stable, nothing hidden
            return self._additive(event, other, after, negated=event.op == "sub" and (main or 0) == 0)
        if event.op == "mul" and len(event.inputs) == 2:
            other = event.inputs[1 - (main or 0)] if main is not None else event.inputs[1]
            value = self.flow.value(other)
            if value is None and other.dtype != "bool":
                self._unread(event, other)
            if other.dtype == "bool" or (value is not None and bool(((value == 0) | (value == 1)).all())):
                hidden = _broadcast(value == 0, shape) if value is not None else None
                return MaskUse(event.index, "multiply", after, mask=other, fill=0.0, hidden=hidden, shape=shape, axes=axes)
        return None

    def _assigned(self, event: OpEvent, after: bool, shape: tuple[int, ...], axes: tuple[int, ...]) -> MaskUse | None:
        """`scores[mask] = value`: a boolean index is a mask, written with a number."""
        index = event.args[1]
        slot = index if isinstance(index, dict) else (index[0] if isinstance(index, list) and len(index) == 1 else None)
        mask = event.inputs[slot[TENSOR_SLOT]] if isinstance(slot, dict) and TENSOR_SLOT in slot else None
        if mask is None or mask.dtype != "bool" or mask.shape != shape:
            return None
        fill = self.flow.scalar(event, 2, "value")
        value = self.flow.value(mask)
        return MaskUse(event.index, "fill", after, mask=mask, fill=fill, shape=shape, axes=axes,
                       hidden=value.bool() if value is not None else None)

    def _unread(self, event: OpEvent, operand: TensorMeta) -> None:
        """An operand the checks wanted (a mask, perhaps) but the value budget left out: the
        block cannot say whether it masks, and the report must say so."""
        if operand.vid in self._dropped:
            self._pending_unread.append(event.index)

    def _from_boolean(self, meta: TensorMeta, depth: int = 4) -> bool:
        """Whether a value was converted from a boolean mask (or a 0/1 mask input, a tokenizer's
        attention_mask) a few ops back."""
        if meta.dtype == "bool":
            return True
        source = self.flow.recording.sources.get(meta.vid)
        if source is not None:
            value = self.flow.value(meta)
            return source.kind == "input" and value is not None and bool(((value == 0) | (value == 1)).all())
        event = self.flow.made_by(meta.vid)
        if event is None or depth == 0 or event.op not in ("to", "float", "type", "half", "mul", "rsub", "sub",
                                                              "unsqueeze", "view", "reshape", "expand", "getitem"):
            return False
        return any(self._from_boolean(m, depth - 1) for m in event.inputs)

    def _row_peak(self, meta: TensorMeta, through: tuple[str, ...] = ("detach", "getitem", "unsqueeze", "expand", "to",
                                                                      "float")) -> bool:
        """Whether a value is a maximum (or log-sum-exp) taken of a table, seen through the ops `through`
        (a hand-written softmax's shift also through the fill of its masked scores)."""
        peak = self.flow.made_by(meta.vid)
        while peak is not None and (peak.op in through or peak.op == "where") and peak.inputs:
            # `torch.where(torch.isfinite(m), m, 0)`: the peak where a row has one, its first branch
            kept = peak.inputs[1] if peak.op == "where" and len(peak.inputs) > 1 else peak.inputs[0]
            peak = self.flow.made_by(kept.vid)
        return peak is not None and peak.op in ("max", "amax", "logsumexp")

    def _additive(self, event: OpEvent, other: TensorMeta, after: bool, shape: tuple[int, ...] | None = None,
                  axes: tuple[int, ...] | None = None, negated: bool = False) -> MaskUse | None:
        """An added tensor is a mask if it holds very negative entries, else a bias (ignored); a
        subtracted one (`negated`) if it holds very positive ones. `shape` and `axes`: the score
        table's, where the op's output is not the table (SDPA's float mask)."""
        value = self.flow.value(other)
        value = -value if negated and value is not None and value.is_floating_point() else value
        shape = event.outputs[0].shape if shape is None else shape
        axes = self.axes.get(event.outputs[0].vid, ()) if axes is None else axes
        if value is None:
            self._unread(event, other)
            return None
        if not value.is_floating_point() or not bool((value < HIDING_THRESHOLD).any()):
            # a weak mask still has only two levels, 0 and one negative value; a bias (ALiBi,
            # relative positions) has many
            levels = torch.unique(value)
            if value.is_floating_point() and len(levels) == 2 and float(levels[1]) == 0 and float(levels[0]) < 0:
                return MaskUse(event.index, "additive", after, mask=other, fill=float(value.min()),
                               hidden=_broadcast(value < 0, shape), shape=shape, axes=axes)
            if len(levels) == 2 and float(levels[0]) == 0 and self._from_boolean(other):
                # a 0/1 mask added as it is: the "hidden" keys get +1, not -inf
                return MaskUse(event.index, "additive", after, mask=other, fill=float(levels[1]),
                               hidden=_broadcast(value != 0, shape), shape=shape, axes=axes)
            return None
        return MaskUse(event.index, "additive", after, mask=other, fill=float(value.min()),
                       hidden=_broadcast(value < HIDING_THRESHOLD, shape), shape=shape, axes=axes)


def _broadcast(hidden: torch.Tensor, shape: tuple[int, ...]) -> torch.Tensor | None:
    """`hidden` with the table's rank, its broadcast dims left at size 1 (never expanded: a
    (T, T) causal mask stays T² however many batch items and heads share it); None if it does
    not broadcast onto `shape`."""
    # By hand: torch.broadcast_shapes imports sympy on its first call (a second, in every fresh process).
    if hidden.dim() > len(shape) or any(
        size not in (1, target) for size, target in zip(reversed(hidden.shape), reversed(shape))
    ):
        return None
    return hidden.bool().reshape((1,) * (len(shape) - hidden.dim()) + tuple(hidden.shape))


@lru_cache(maxsize=8)
def _later_keys(rows: int, cols: int) -> torch.Tensor:
    """SDPA's is_causal pattern (top-left aligned), shared by every block of that size."""
    return torch.ones(rows, cols, dtype=torch.bool).triu(1)


def _times(scale: float | None, factor: float | None) -> float | None:
    return None if scale is None or factor is None else scale * factor


def find_blocks(flow: Dataflow, table: AxisTable, axes: dict[int, tuple[int, ...]], facts: dict[int, OpFacts]) -> list[AttentionBlock]:
    return BlockFinder(flow, table, axes, facts).find()


def attended_pairs(table: AxisTable, blocks: list[AttentionBlock]) -> set[frozenset]:
    """Pairs of sequences one attends to the other: the model itself treats them as different."""
    pairs = set()
    for block in blocks:
        seqs = {table.sequence_of(axis) for axis in block.table_axes if table.get(axis).role}
        if len(seqs) == 2 and None not in seqs:
            pairs.add(frozenset(seqs))
    return pairs
