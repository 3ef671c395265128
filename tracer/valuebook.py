"""Every value the recorder has seen: its id, its metadata, and its copy or its statistics.

A value is what a tensor holds between two writes: an op's output, or a source (an input,
parameter or buffer) the first time it is read. The user's tensors are held only weakly and
never changed. Of each value the book keeps either a copy (`ValueKeeper`: what the checks
and the TUI read; statistics come from it when asked) or, while the tensor still exists, its
statistics. Both are made at most once per value: an output with the same elements as its
input (a view, `contiguous`, dropout in eval) takes the input's statistics.
"""

from __future__ import annotations

import weakref

import torch

from .events import TensorMeta, ValueStats
from .statistics import permuted_stats, value_stats
from .values import EXPANSIONS, MASK_OPS, ValueKeeper

# Ops whose output holds its first input's elements in the same order, when dtype and size match.
SAME_ELEMENTS = frozenset({
    "view", "reshape", "flatten", "unflatten", "squeeze", "unsqueeze", "contiguous", "clone", "detach",
    "view_as", "reshape_as", "to", "type", "type_as", "float", "double", "half", "bfloat16", "cpu", "cuda",
    "dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d", "dropout3d",
})
# Ops whose output holds its first input's elements in another order.
PERMUTATIONS = frozenset({"transpose", "permute", "t", "movedim"})
# ... of SAME_ELEMENTS, these return a new tensor with other elements in training mode, or their
# (changed) input when in place: the same elements only when the output is the unchanged input.
SAME_WHEN_UNCHANGED = frozenset({"dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d",
                                 "dropout2d", "dropout3d"})

_DTYPE_NAMES: dict[torch.dtype, str] = {}


def dtype_name(dtype: torch.dtype) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype).removeprefix("torch.")
    return name


def dense_bias(tensor: torch.Tensor) -> torch.Tensor:
    """The boolean mask an attention bias object stands for (`causal_lower_right(Tq, Tk)`, a tensor
    subclass whose own shape and dtype say nothing of it), else the tensor itself."""
    if type(tensor).__name__ == "CausalBias" and hasattr(tensor, "_materialize"):
        return tensor._materialize(tensor.device)
    return tensor


def two_levels(tensor: torch.Tensor) -> bool:
    """Whether a float tensor holds at most two distinct values (a mask written in floats)."""
    if not tensor.is_floating_point() or tensor.is_meta or tensor.numel() == 0:
        return False
    flat = tensor.detach().reshape(-1)
    low, high = torch.aminmax(flat)
    return bool(((flat == low) | (flat == high)).all())


class ValueBook:
    """tensor -> its current value, and what is kept of each value."""

    def __init__(self, keeper: ValueKeeper) -> None:
        self.keeper = keeper
        # id(tensor) -> (weak reference, meta); a dead tensor's entry stays until its id is
        # reused, and the identity check on lookup tells the two apart (the recorder reads
        # this directly for every op's inputs)
        self.entries: dict[int, tuple[weakref.ref, TensorMeta]] = {}
        self._next_vid = 0
        self._stats: dict[int, ValueStats | None] = {}  # of values not copied
        self._masks: set[int] = set()  # masks and what is computed from them and constants only
        self._constants: set[int] = set()  # made from no tensor (factories) or from constants only

    def meta(self, tensor: torch.Tensor) -> TensorMeta | None:
        """The current value of `tensor`, or None if the book has not seen it."""
        entry = self.entries.get(id(tensor))
        return entry[1] if entry is not None and entry[0]() is tensor else None

    def source(self, tensor: torch.Tensor, learned: bool = False) -> TensorMeta:
        """A tensor that no recorded op produced (an input, a parameter, a buffer): a new value.

        Bool and integer sources are masks (or ids); so is a float input or buffer of two
        levels at most (a 0/1 `keep`, a 0/-inf additive mask), which is then kept under the
        mask budget at any length, not only while it is small. A `learned` weight is no mask.
        """
        original, tensor = tensor, dense_bias(tensor)
        meta = self._register(original, tensor)
        mask = not (tensor.is_floating_point() or tensor.is_complex()) or (not learned and two_levels(tensor))
        if mask:
            self._masks.add(meta.vid)
        if not self.keeper.offer(meta.vid, "source", tensor, mask):
            self._stats[meta.vid] = None
        return meta

    def output(self, tensor: torch.Tensor, op: str, inputs: tuple[TensorMeta, ...],
               operands: list[torch.Tensor], unchanged: bool) -> tuple[TensorMeta, ValueStats | None]:
        """A value an op produced, and its statistics unless they come from its copy later.

        `operands` are the op's tensor arguments (`inputs` are their values), `unchanged`
        whether the first of them was not written by the op. Called for every recorded op,
        so the steps are inline.
        """
        vid = self._next_vid
        self._next_vid = vid + 1
        dtype = _DTYPE_NAMES.get(tensor.dtype) or dtype_name(tensor.dtype)
        meta = TensorMeta(vid, tuple(tensor.shape), dtype, "cpu" if tensor.is_cpu else str(tensor.device))
        self.entries[id(tensor)] = (weakref.ref(tensor), meta)
        # a mask: a bool value, a triangle or comparison, or made of masks and constants only
        if dtype == "bool" or op in MASK_OPS:
            mask = True
        elif not inputs:
            mask = False
            self._constants.add(vid)
        elif inputs[0].vid not in self._masks and inputs[0].vid not in self._constants:
            mask = False  # the common case, without a call
        else:
            mask = self._from_masks(vid, inputs)
        if op in EXPANSIONS and inputs:
            kept = self.keeper.offer_expanded(vid, op, tensor, inputs[0].vid, mask)
        else:
            kept = self.keeper.offer(vid, op, tensor, mask)
        if mask:
            self._masks.add(vid)
        if kept:
            return meta, None
        stats = None
        if op in SAME_ELEMENTS and inputs and self._same_elements(meta, op, inputs[0], tensor, operands, unchanged):
            stats = self._stats.get(inputs[0].vid)
        elif op in PERMUTATIONS and inputs and self._same_elements(meta, op, inputs[0], tensor, operands, unchanged):
            known = self._stats.get(inputs[0].vid)
            stats = permuted_stats(known, tensor) if known is not None else None
        if stats is None:
            stats = value_stats(tensor)
        self._stats[vid] = stats
        return meta, stats

    def _register(self, tensor: torch.Tensor, described: torch.Tensor | None = None) -> TensorMeta:
        """A new value for `tensor`, with the shape and dtype of `described` (by default, its own)."""
        shaped = tensor if described is None else described
        vid = self._next_vid
        self._next_vid = vid + 1
        meta = TensorMeta(vid, tuple(shaped.shape), dtype_name(shaped.dtype),
                          "cpu" if shaped.is_cpu else str(shaped.device))
        self.entries[id(tensor)] = (weakref.ref(tensor), meta)
        return meta

    def _from_masks(self, vid: int, inputs: tuple[TensorMeta, ...]) -> bool:
        """Made from masks and constants only (a mask), or from constants only (a constant)?"""
        masks, constants = self._masks, self._constants
        from_mask = False
        for meta in inputs:
            if meta.vid in masks:
                from_mask = True
            elif meta.vid not in constants:
                return False
        if not from_mask:
            constants.add(vid)
        return from_mask

    def _same_elements(self, meta: TensorMeta, op: str, first: TensorMeta, tensor: torch.Tensor,
                       operands: list[torch.Tensor], unchanged: bool) -> bool:
        if meta.dtype != first.dtype or meta.numel != first.numel:
            return False
        return op not in SAME_WHEN_UNCHANGED or (unchanged and tensor is operands[0])
