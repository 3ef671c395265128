"""Fewer boxes, same meaning: fold bookkeeping ops, drop dead ends, group known idioms.

A reader of a Transformer diagram wants the ops that change what the axes mean. So, by
default (`all_ops=False`):

- *folded*: ops that only do bookkeeping (`contiguous`, `to`, `detach`, plain views that keep
  every axis) vanish; the value flows straight from their input's producer to their users.
- *dropped*: ops whose results never reach the model's output (shape checks, `any()` guards
  feeding Python `if`s) are not drawn.
- *grouped*: a head split (view + transpose), a head merge (transpose + reshape) and a
  hand-written softmax (max / sub / exp / sum / div) each become one box that says so.

An op with a finding is never folded or dropped: the diagram exists to show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis import Analysis
from ..events import OpEvent

CASTS = frozenset({"contiguous", "clone", "detach", "to", "type", "float", "half", "double", "bfloat16", "alias"})
RESHAPES = frozenset({"view", "reshape", "flatten", "unflatten", "_unsafe_view", "view_as", "reshape_as"})
SHAPE_ONLY = RESHAPES | frozenset({"squeeze", "unsqueeze"})
MOVES = frozenset({"transpose", "permute", "swapaxes", "movedim"})
SOFTMAX_HELPERS = frozenset({"amax", "max", "detach", "getitem", "sub", "logsumexp"})


@dataclass
class Group:
    """Several events drawn as one box."""

    id_event: int  # the event whose output leaves the group (its node id names the box)
    kind: str  # "split-heads", "merge-heads", "softmax"
    members: list[int]


@dataclass
class Simplified:
    folded: dict[int, int] = field(default_factory=dict)  # event -> input position passed through
    dropped: set[int] = field(default_factory=set)
    groups: dict[int, Group] = field(default_factory=dict)  # member event -> its group
    producer: dict[int, int] = field(default_factory=dict)  # vid -> event index
    users: dict[int, list[int]] = field(default_factory=dict)  # vid -> event indices

    def trace_back(self, vid: int, events: list[OpEvent]) -> tuple[int | None, int]:
        """(drawn event, value) behind `vid`, looking through folded ops; event None for a source."""
        index = self.producer.get(vid)
        while index is not None and index in self.folded:
            vid = events[index].inputs[self.folded[index]].vid
            index = self.producer.get(vid)
        return index, vid

    def source(self, vid: int, events: list[OpEvent]) -> int | None:
        return self.trace_back(vid, events)[0]


def _index(analysis: Analysis) -> tuple[dict[int, int], dict[int, list[int]]]:
    producer: dict[int, int] = {}
    users: dict[int, list[int]] = {}
    for event in analysis.recording.events:
        for meta in event.inputs:
            users.setdefault(meta.vid, []).append(event.index)
        for meta in event.outputs:
            producer[meta.vid] = event.index
    return producer, users


def live_events(analysis: Analysis, producer: dict[int, int], keep: set[int]) -> set[int] | None:
    """Events whose results reach the model's outputs or a flagged op; None when no output was recorded."""
    recording = analysis.recording
    if not recording.outputs or recording.error:
        return None
    live: set[int] = set()
    stack = [producer[m.vid] for m in recording.outputs if m.vid in producer] + sorted(keep)
    while stack:
        index = stack.pop()
        if index in live:
            continue
        live.add(index)
        for meta in recording.events[index].inputs:
            if meta.vid in producer:
                stack.append(producer[meta.vid])
    return live


class Simplifier:
    """Decides, event by event, what is folded, dropped or grouped."""

    def __init__(self, analysis: Analysis, findings: dict[int, list]) -> None:
        self.analysis, self.findings = analysis, findings
        self.flagged = set(findings)
        self.events = analysis.recording.events
        self.table = analysis.table
        self.result = Simplified()
        self.result.producer, self.result.users = _index(analysis)

    def run(self) -> Simplified:
        live = live_events(self.analysis, self.result.producer, self.flagged)
        if live is not None:
            self.result.dropped = {e.index for e in self.events if e.index not in live}
        for event in self.events:
            if event.index not in self.result.dropped and self._bookkeeping(event):
                self.result.folded[event.index] = 0
        self._softmax_groups()
        for event in self.events:
            if event.index in self.result.groups or event.index in self.result.folded:
                continue
            if event.op in RESHAPES and event.inputs and event.outputs:
                self._head_group(event)
        return self.result

    # ------------------------------------------------------------ folding
    def _roots(self, axes: tuple[int, ...]) -> list[int]:
        return [self.table.find(a) for a in axes if self.table.get(a).size != 1]

    def _bookkeeping(self, event: OpEvent) -> bool:
        if event.index in self.flagged or len(event.outputs) != 1 or not event.inputs or event.error:
            return False
        if event.op in CASTS:
            return sum(1 for m in event.inputs if m.numel > 1) <= 1
        if event.op in SHAPE_ONLY:
            before = self._roots(self.analysis.axes_of(event.inputs[0]))
            after = self._roots(self.analysis.axes_of(event.outputs[0]))
            return before == after
        return False

    def source_event(self, vid: int) -> int | None:
        return self.result.source(vid, self.events)

    def _single_user(self, event: OpEvent) -> int | None:
        """The one drawn event that uses this event's output, looking through folded ops."""
        vid = event.outputs[0].vid
        for _ in range(4):
            users = [u for u in self.result.users.get(vid, []) if u not in self.result.dropped]
            if len(users) != 1:
                return None
            if users[0] in self.result.folded:
                vid = self.events[users[0]].outputs[0].vid
                continue
            return users[0]
        return None

    # ------------------------------------------------------------ groups
    def _add(self, kind: str, members: list[int], id_event: int) -> None:
        group = Group(id_event, kind, sorted(members))
        for index in members:
            self.result.groups[index] = group

    def _kinds(self, axes: tuple[int, ...]) -> set[int]:
        return {self.table.find(a) for a in axes if self.table.get(a).kind == "head"}

    def _has_code(self, index: int, code: str) -> bool:
        return any(f.code == code for f in self.findings.get(index, []))

    def _head_group(self, event: OpEvent) -> None:
        before = self.analysis.axes_of(event.inputs[0])
        after = self.analysis.axes_of(event.outputs[0])
        real_before = [a for a in before if self.table.get(a).size != 1]
        real_after = [a for a in after if self.table.get(a).size != 1]
        new_heads = self._kinds(after) - self._kinds(before)
        lost_heads = self._kinds(before) - self._kinds(after)
        if len(real_after) > len(real_before) and (new_heads or self._has_code(event.index, "head-split")):
            members = [event.index]
            user = self._single_user(event)
            if user is not None and self._moves_heads(self.events[user]) and user not in self.result.groups:
                members.append(user)
            self._add("split-heads", members, members[-1])
        elif len(real_after) < len(real_before) and (lost_heads or self._has_code(event.index, "head-merge")):
            members = [event.index]
            mover = self.source_event(event.inputs[0].vid)
            if mover is not None and self._moves_heads(self.events[mover]) and mover not in self.result.groups \
                    and self._single_user(self.events[mover]) == event.index:
                members.insert(0, mover)
            self._add("merge-heads", members, event.index)

    def _moves_heads(self, event: OpEvent) -> bool:
        """A transpose/permute that keeps the last (feature) axis: (B, T, H, d_h) <-> (B, H, T, d_h).

        A transpose of the last two axes is K's transpose for the scores, not part of a head split.
        """
        if event.op not in MOVES or not event.inputs or not event.outputs:
            return False
        before = self.analysis.axes_of(event.inputs[0])
        after = self.analysis.axes_of(event.outputs[0])
        return bool(before) and bool(after) and self.table.same(before[-1], after[-1])

    def _softmax_groups(self) -> None:
        """max / sub / exp / sum / div of one hand-written softmax, as one box."""
        for block in self.analysis.blocks:
            if block.kind != "handwritten" or block.exp_event is None:
                continue
            div = self.events[block.norm_event]
            members = {block.norm_event, block.exp_event}
            total = self.source_event(div.inputs[1].vid) if len(div.inputs) > 1 else None
            if total is not None and self.events[total].op == "sum":
                members.add(total)
            if block.max_subtracted:
                exp = self.events[block.exp_event]
                shifted = self.source_event(exp.inputs[0].vid) if exp.inputs else None
                if shifted is not None and self.events[shifted].op == "sub":
                    members.add(shifted)
                    peak = self.source_event(self.events[shifted].inputs[1].vid) if len(self.events[shifted].inputs) > 1 else None
                    while peak is not None and self.events[peak].op in SOFTMAX_HELPERS and peak not in members:
                        members.add(peak)
                        inputs = self.events[peak].inputs
                        peak = self.source_event(inputs[0].vid) if inputs and self.events[peak].op in ("detach", "getitem") else None
            module = div.module_call
            members = {m for m in members if self.events[m].module_call == module and m not in self.result.groups}
            if len(members) > 1:
                self._add("softmax", sorted(members), block.norm_event)


def simplify(analysis: Analysis, findings: dict[int, list], all_ops: bool = False) -> Simplified:
    """What to fold, drop and group; nothing at all under `all_ops`."""
    if all_ops:
        result = Simplified()
        result.producer, result.users = _index(analysis)
        return result
    return Simplifier(analysis, findings).run()
