"""The recording as plain data: what one traced forward pass leaves behind.

Everything here is read-only and torch-free except `Recording.values` (kept tensors), so
later stages (axes, graph, checks, rendering, the TUI) read a recording without ever
touching the live model, and a saved recording reloads without the model's code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from .statistics import ValueStats, value_stats

__all__ = ["ModuleCall", "OpEvent", "Recording", "Source", "TENSOR_SLOT", "TensorMeta", "ValueStats"]

# A JSON-able stand-in for a tensor argument: {"$t": i} means `event.inputs[i]`.
TENSOR_SLOT = "$t"


@dataclass(slots=True, unsafe_hash=True)
class TensorMeta:
    """One tensor *value* as seen by the recorder.

    `vid` names a value, not a Python object: an in-place op gives its tensor a new vid, so
    every vid has exactly one producer (an event or a source).

    Read-only by convention and hashed by value; not frozen, because a frozen dataclass
    sets each field through `object.__setattr__`, and the recorder makes one per value.
    """

    vid: int
    shape: tuple[int, ...]
    dtype: str
    device: str

    @property
    def numel(self) -> int:
        count = 1
        for size in self.shape:
            count *= size
        return count


@dataclass(frozen=True, slots=True)
class Source:
    """A value that entered the forward pass without being produced by a recorded op."""

    kind: str  # "input", "param", "buffer" or "external"
    name: str
    meta: TensorMeta


@dataclass(slots=True)
class OpEvent:
    """One torch function or Tensor method call made by the user's forward code.

    `args`/`kwargs` hold every non-tensor argument as JSON-able data (ints, floats, strings,
    lists, slices as {"slice": [start, stop, step]}, dtypes as strings) and tensors as
    {"$t": i} pointing into `inputs`. `error` is set when the call raised.

    Read-only by convention, not frozen: a frozen dataclass sets each field through
    `object.__setattr__`, which costs about a microsecond per recorded op.
    """

    index: int
    op: str
    target: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    inputs: tuple[TensorMeta, ...]
    outputs: tuple[TensorMeta, ...]
    inplace: bool
    module: str
    module_call: int
    file: str
    line: int
    stats: tuple[ValueStats | None, ...] = ()
    error: str | None = None

    def arg(self, position: int, name: str, default: Any = None) -> Any:
        """The argument given by position or by keyword, as recorded."""
        if name in self.kwargs:
            return self.kwargs[name]
        if position < len(self.args):
            return self.args[position]
        return default

    def tensor_arg(self, position: int, name: str) -> TensorMeta | None:
        """The tensor passed at `position` or as `name`, or None if that argument is not a tensor."""
        value = self.arg(position, name)
        if isinstance(value, dict) and TENSOR_SLOT in value:
            return self.inputs[value[TENSOR_SLOT]]
        return None

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(slots=True)
class ModuleCall:
    """One call of an `nn.Module`; events `first_event <= i < end_event` ran inside it.

    Read-only by convention, not frozen, for the same reason as `OpEvent`.
    """

    index: int
    path: str
    type_name: str
    parent: int | None
    depth: int
    first_event: int
    end_event: int
    forward_pass: int
    inputs: tuple[TensorMeta, ...] = ()
    outputs: tuple[TensorMeta, ...] = ()
    training: bool = False
    raised: bool = False
    attributes: dict[str, Any] = field(default_factory=dict)  # layout facts the module states, e.g. batch_first


@dataclass
class Recording:
    """Everything one `trace` block saw. Built by the recorder, read by every later stage."""

    root_type: str
    events: list[OpEvent] = field(default_factory=list)
    module_calls: list[ModuleCall] = field(default_factory=list)
    sources: dict[int, Source] = field(default_factory=dict)
    outputs: list[TensorMeta] = field(default_factory=list)
    values: dict[int, Any] = field(default_factory=dict)  # vid -> torch.Tensor (kept copies)
    forward_passes: int = 0
    error: str | None = None  # "ExceptionType: message" when a forward pass raised
    error_file: str = ""  # the user's line that raised
    error_line: int = 0
    device: str = "cpu"
    notes: list[str] = field(default_factory=list)
    # vids whose values the checks read but were not kept (value budget): the analysis says
    # which checks that limited
    dropped: list[int] = field(default_factory=list)
    # input name -> [file, line] of the user's lines in build() that made it, nearest first (`tracer.origins`)
    input_origins: dict[str, list[list[Any]]] = field(default_factory=dict)

    def stats_of(self, vid: int) -> ValueStats | None:
        """Statistics of a value: recorded with its op, or computed (once) from its kept copy."""
        cache = self.__dict__.setdefault("_stats_cache", {})
        if vid not in cache:
            cache[vid] = self._recorded_stats(vid)
        return cache[vid]

    def _recorded_stats(self, vid: int) -> ValueStats | None:
        where = self.__dict__.get("_output_positions")
        if where is None:  # built once, on the first question
            where = self.__dict__["_output_positions"] = {
                meta.vid: (event, position) for event in self.events for position, meta in enumerate(event.outputs)}
        if vid in where:
            event, position = where[vid]
            if position < len(event.stats) and event.stats[position] is not None:
                return event.stats[position]
        value = self.values.get(vid)
        return None if value is None else value_stats(value)

    def producers(self) -> dict[int, int]:
        """vid -> index of the event that produced it."""
        return {meta.vid: event.index for event in self.events for meta in event.outputs}

    def ops(self, *names: str) -> Iterator[OpEvent]:
        """Events whose canonical op name is one of `names` (all events when none given), in
        recording order. The checks ask this often, so the events are indexed by op once."""
        if not names:
            return iter(self.events)
        index = self.__dict__.get("_by_op")
        if index is None or index[0] != len(self.events):  # built once, rebuilt if events were added
            by_op: dict[str, list[OpEvent]] = {}
            for event in self.events:
                by_op.setdefault(event.op, []).append(event)
            index = self.__dict__["_by_op"] = (len(self.events), by_op)
        found = [event for name in dict.fromkeys(names) for event in index[1].get(name, ())]
        if len(names) > 1:
            found.sort(key=lambda event: event.index)
        return iter(found)
