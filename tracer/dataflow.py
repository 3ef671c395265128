"""Who made each value and who used it: the index every later stage walks the recording with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import torch

from .events import OpEvent, Recording, TensorMeta


# Ops that make a tensor of one value: (position, name, default) of that value among their arguments.
FILLED = {
    "zeros_like": (99, "", 0.0), "ones_like": (99, "", 1.0), "full_like": (1, "fill_value", None),
    "zeros": (99, "", 0.0), "ones": (99, "", 1.0), "full": (1, "fill_value", None),
    "new_zeros": (99, "", 0.0), "new_ones": (99, "", 1.0), "new_full": (2, "fill_value", None),
}


@dataclass
class Dataflow:
    recording: Recording
    producer: dict[int, int] = field(default_factory=dict)  # vid -> event index
    consumers: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # vid -> [(event, position)]

    @classmethod
    def of(cls, recording: Recording) -> "Dataflow":
        flow = cls(recording)
        consumers, producer = flow.consumers, flow.producer
        for event in recording.events:
            index = event.index
            for position, meta in enumerate(event.inputs):
                users = consumers.get(meta.vid)
                if users is None:
                    consumers[meta.vid] = [(index, position)]
                else:
                    users.append((index, position))
            for meta in event.outputs:
                producer[meta.vid] = index
        return flow

    def made_by(self, vid: int) -> OpEvent | None:
        index = self.producer.get(vid)
        return None if index is None else self.recording.events[index]

    def users(self, vid: int) -> list[tuple[OpEvent, int]]:
        return [(self.recording.events[i], p) for i, p in self.consumers.get(vid, [])]

    def ancestors(self, *vids: int, limit: int | None = None) -> Iterator[int]:
        """`vids` and every value they were computed from, each once, depth first, at most `limit` of
        them: the walk behind "what was this value made from" (an input, a line that built a mask)."""
        todo, seen = list(vids), set()
        while todo and (limit is None or len(seen) < limit):
            vid = todo.pop()
            if vid in seen:
                continue
            seen.add(vid)
            yield vid
            made = self.made_by(vid)
            if made is not None:
                todo.extend(meta.vid for meta in made.inputs)

    def value(self, meta: TensorMeta | int) -> torch.Tensor | None:
        vid = meta if isinstance(meta, int) else meta.vid
        return self.recording.values.get(vid)

    def scalar(self, event: OpEvent, position: int, name: str) -> float | None:
        """A number argument, given as a Python number or as a one-element tensor with a kept value."""
        value = event.arg(position, name)
        if isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            return float(value)
        tensor = event.tensor_arg(position, name)
        return self.constant(tensor) if tensor is not None else None

    def constant(self, meta: TensorMeta) -> float | None:
        """The one value every element of a tensor holds (a number passed as a tensor, `zeros_like(s)`,
        `full_like(s, -inf)`), or None."""
        made = self.made_by(meta.vid)
        if made is not None and made.op in FILLED:
            position, name, default = FILLED[made.op]
            value = made.arg(position, name, default)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
        kept = self.value(meta)
        if kept is None or kept.numel() == 0 or kept.is_complex():
            return None
        first = kept.reshape(-1)[0]
        same = bool(((kept == first) | (kept.isnan() & first.isnan())).all()) if kept.is_floating_point() \
            else bool((kept == first).all())
        return float(first.double()) if same else None
