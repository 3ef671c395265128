"""Where a target's inputs were built: the user's lines in `build()` behind each input tensor.

A mask made by a helper that `build()` calls (`subsequent_mask(size)` with `triu(diagonal=0)`)
reaches the forward pass as an input, so the recording of the forward cannot say where it was
made. While `build()` runs, every torch call from the user's code is noted by its output
tensors: the line that made each, and the tensors it was made from. For each input of the
target, the lines behind it, nearest first, become notes of the findings whose faulty operand
is that input (`evidence.provenance`).
"""

from __future__ import annotations

import sys
import weakref
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from .arguments import tensors_in
from .source import user_location

LINES = 6  # lines kept per input, nearest first
RESHAPING = frozenset({  # calls that only reshape or convert: the line that computed the values comes first
    "unsqueeze", "squeeze", "view", "reshape", "expand", "contiguous", "clone", "to", "type", "type_as", "float",
    "bool", "long", "int", "half", "__getitem__", "transpose", "permute", "repeat", "detach", "data",
})


class _Made:
    """One user call's tensor: its line, and the calls that made what it was made from (kept by the
    records themselves, so a chain holds after the tensors between are gone)."""

    __slots__ = ("file", "line", "reshaping", "sources")

    def __init__(self, file: str, line: int, reshaping: bool, sources: tuple["_Made", ...]) -> None:
        self.file, self.line, self.reshaping, self.sources = file, line, reshaping, sources


class Origins(TorchFunctionMode):
    """Notes, while the user's build runs, which line made each tensor and from which tensors."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[int, tuple[weakref.ref, _Made]] = {}  # id of a live tensor -> (it, weakly; its record)

    def _record(self, tensor: Any) -> _Made | None:
        found = self._made.get(id(tensor))
        return found[1] if found is not None and found[0]() is tensor else None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        file, line = user_location(sys._getframe(1))
        if file:
            sources = tuple(made for made in map(self._record, tensors_in((args, kwargs or {}))) if made is not None)
            made = _Made(file, line, getattr(func, "__name__", "") in RESHAPING, sources)
            for tensor in tensors_in(result):
                try:
                    self._made[id(tensor)] = (weakref.ref(tensor), made)
                except TypeError:  # a tensor subclass that takes no weak reference: no note for it
                    continue
        return result

    def lines_of(self, tensor: torch.Tensor) -> tuple[tuple[str, int], ...]:
        """The user lines that made `tensor`, nearest first: the lines that computed values, then
        those that only reshaped or converted them."""
        computed: list[tuple[str, int]] = []
        reshaped: list[tuple[str, int]] = []
        first = self._record(tensor)
        frontier, seen = [first] if first is not None else [], set()
        while frontier and len(seen) < 64 and len(computed) < LINES:
            made = frontier.pop(0)
            if id(made) in seen:
                continue
            seen.add(id(made))
            place = (made.file, made.line)
            if place not in computed and place not in reshaped:
                (reshaped if made.reshaping else computed).append(place)
            frontier.extend(made.sources)
        return tuple((computed + [place for place in reshaped if place not in computed])[:LINES])

    def of_inputs(self, args: tuple, kwargs: dict[str, Any]) -> dict[int, tuple[tuple[str, int], ...]]:
        """The lines behind each input tensor, by its position among the forward's tensors."""
        return {position: self.lines_of(tensor) for position, tensor in enumerate(tensors_in((args, kwargs)))
                if self._record(tensor) is not None}
