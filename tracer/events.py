"""The recording as plain data: what one traced forward pass leaves behind.

Everything here is immutable and torch-free except `Recording.values` (kept tensors), so
later stages (axes, graph, checks, rendering, the TUI) read a recording without ever
touching the live model, and a saved recording reloads without the model's code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

# A JSON-able stand-in for a tensor argument: {"$t": i} means `event.inputs[i]`.
TENSOR_SLOT = "$t"


@dataclass(frozen=True, slots=True)
class TensorMeta:
    """One tensor *value* as seen by the recorder.

    `vid` names a value, not a Python object: an in-place op gives its tensor a new vid, so
    every vid has exactly one producer (an event or a source).
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
class ValueStats:
    """Cheap statistics of a floating or boolean value, kept for every recorded output."""

    minimum: float
    maximum: float
    mean: float
    nonfinite: int  # count of NaN and +-Inf elements
    nan: int


@dataclass(frozen=True, slots=True)
class Source:
    """A value that entered the forward pass without being produced by a recorded op."""

    kind: str  # "input", "param", "buffer" or "external"
    name: str
    meta: TensorMeta


@dataclass(frozen=True, slots=True)
class OpEvent:
    """One torch function or Tensor method call made by the user's forward code.

    `args`/`kwargs` hold every non-tensor argument as JSON-able data (ints, floats, strings,
    lists, slices as {"slice": [start, stop, step]}, dtypes as strings) and tensors as
    {"$t": i} pointing into `inputs`. `error` is set when the call raised.
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


@dataclass(frozen=True, slots=True)
class ModuleCall:
    """One call of an `nn.Module`; events `first_event <= i < end_event` ran inside it."""

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

    def stats_of(self, vid: int) -> ValueStats | None:
        """Statistics of a value: recorded with its op, or computed (once) from its kept copy."""
        cache = self.__dict__.setdefault("_stats_cache", {})
        if vid not in cache:
            cache[vid] = self._recorded_stats(vid)
        return cache[vid]

    def _recorded_stats(self, vid: int) -> ValueStats | None:
        where = self.__dict__.setdefault("_output_positions", {
            meta.vid: (event, position) for event in self.events for position, meta in enumerate(event.outputs)})
        if vid in where:
            event, position = where[vid]
            if position < len(event.stats) and event.stats[position] is not None:
                return event.stats[position]
        value = self.values.get(vid)
        if value is None:
            return None
        from .values import value_stats  # torch only where there are tensors

        return value_stats(value)

    def producers(self) -> dict[int, int]:
        """vid -> index of the event that produced it."""
        return {meta.vid: event.index for event in self.events for meta in event.outputs}

    def ops(self, *names: str) -> Iterator[OpEvent]:
        """Events whose canonical op name is one of `names` (all events when none given)."""
        for event in self.events:
            if not names or event.op in names:
                yield event
