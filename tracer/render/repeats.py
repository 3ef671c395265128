"""Repeated identical blocks (`layers.0` ... `layers.11`) found so they can be drawn once, "× 12".

Two sibling module calls are the same block when their paths differ only in a trailing
integer (`layers.3`, `layers.4`), they follow each other, and their recorded insides match:
the same ops in the same submodules with the same shapes, wired the same way, with findings
on the same ops. A layer that differs in any of these (a bug in layer 5 only) breaks the run
and is drawn on its own, so folding never hides a difference.

The result maps every event and module call of instances 2..N onto the matching one in
instance 1, the representative that gets drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..events import ModuleCall, Recording


@dataclass
class Run:
    """Consecutive identical sibling calls; `calls[0]` is drawn."""

    calls: list[ModuleCall]

    @property
    def count(self) -> int:
        return len(self.calls)

    @property
    def label(self) -> str:
        return f"{self.calls[0].path} … {self.calls[-1].path}"


@dataclass
class Repeats:
    runs: dict[int, Run] = field(default_factory=dict)  # representative call index -> run
    event_map: dict[int, int] = field(default_factory=dict)  # hidden event -> event one level up
    call_map: dict[int, int] = field(default_factory=dict)  # hidden call -> call one level up
    instance: dict[int, dict[int, int]] = field(default_factory=dict)  # event -> {run id: instance}

    def event(self, index: int) -> int:
        """The drawn event that stands for `index`."""
        while index in self.event_map:
            index = self.event_map[index]
        return index

    def call(self, index: int) -> int:
        while index in self.call_map:
            index = self.call_map[index]
        return index

    def crosses(self, tail: int, head: int) -> bool:
        """True for a value handed from one instance of a run to another (layer i -> layer i+1)."""
        tails, heads = self.instance.get(tail), self.instance.get(head)
        if not tails or not heads:
            return False
        return any(run in heads and heads[run] != k for run, k in tails.items())


def _signature(recording: Recording, call: ModuleCall, flagged: set[int], producer: dict[int, int]) -> tuple:
    events = recording.events[call.first_event:call.end_event]
    prefix = call.path + "." if call.path else ""
    parts: list[tuple] = []
    for event in events:
        wiring = []
        for meta in event.inputs:
            source = producer.get(meta.vid)
            if source is not None and call.first_event <= source < call.end_event:
                wiring.append(source - call.first_event)
            else:  # parameters differ by name only; any other outside value is "the input"
                source = recording.sources.get(meta.vid)
                wiring.append(-1 if source is not None and source.kind in ("param", "buffer") else -2)
        if event.module == call.path:
            relative = ""
        else:
            relative = event.module[len(prefix):] if event.module.startswith(prefix) else event.module
        parts.append((
            event.op, relative, tuple(m.shape for m in event.inputs), tuple(m.shape for m in event.outputs),
            tuple(m.dtype for m in event.outputs), tuple(wiring), event.index in flagged,
        ))
    return tuple(parts)


def _nested(recording: Recording, call: ModuleCall) -> list[ModuleCall]:
    """`call` and every call made inside it, in order (calls are recorded in entry order)."""
    calls = recording.module_calls
    inside = [call]
    members = {call.index}
    for other in calls[call.index + 1:]:
        if other.parent in members:
            inside.append(other)
            members.add(other.index)
        elif other.first_event >= call.end_event and other.index > call.index:
            break
    return inside


def _structure(recording: Recording, call: ModuleCall) -> tuple:
    prefix = call.path + "."
    return tuple((c.path[len(prefix):], c.type_name, c.index - call.index) for c in _nested(recording, call)[1:])


def find_repeats(recording: Recording, flagged: set[int], allowed: set[int] | None = None) -> Repeats:
    """Every run of two or more identical consecutive sibling calls, outer runs first.

    `allowed` limits the search to those module calls (a focused module's), so a layer being
    looked at is never folded into a sibling outside the view.
    """
    producer = {m.vid: e.index for e in recording.events for m in e.outputs}
    siblings: dict[tuple, list[tuple[int, ModuleCall]]] = {}
    for call in recording.module_calls:
        if allowed is not None and call.index not in allowed:
            continue
        stem, _, last = call.path.rpartition(".")
        if last.isdigit() and call.parent is not None:
            siblings.setdefault((call.parent, stem, call.type_name), []).append((int(last), call))
    repeats = Repeats()
    runs: list[Run] = []
    for key in sorted(siblings, key=lambda k: min(c.index for _, c in siblings[k])):
        ordered = sorted(siblings[key], key=lambda item: (item[0], item[1].index))
        current: list[ModuleCall] = []
        previous_number, previous_key = None, None
        for number, call in ordered:
            signature = (_signature(recording, call, flagged, producer), _structure(recording, call))
            if current and number == previous_number + 1 and signature == previous_key:
                current.append(call)
            else:
                if len(current) > 1:
                    runs.append(Run(current))
                current = [call]
            previous_number, previous_key = number, signature
        if len(current) > 1:
            runs.append(Run(current))
    for run_id, run in enumerate(sorted(runs, key=lambda r: (r.calls[0].depth, r.calls[0].index))):
        first = run.calls[0]
        repeats.runs[first.index] = run
        first_nested = _nested(recording, first)
        for k, call in enumerate(run.calls):
            for index in range(call.first_event, call.end_event):
                repeats.instance.setdefault(index, {})[run_id] = k
                if k:
                    repeats.event_map.setdefault(index, index - call.first_event + first.first_event)
            if k:
                for inner, twin in zip(_nested(recording, call), first_nested):
                    repeats.call_map.setdefault(inner.index, twin.index)
    return repeats
