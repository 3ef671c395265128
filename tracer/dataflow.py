"""Who made each value and who used it: the index every later stage walks the recording with."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .events import OpEvent, Recording, TensorMeta


@dataclass
class Dataflow:
    recording: Recording
    producer: dict[int, int] = field(default_factory=dict)  # vid -> event index
    consumers: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # vid -> [(event, position)]

    @classmethod
    def of(cls, recording: Recording) -> "Dataflow":
        flow = cls(recording)
        for event in recording.events:
            for position, meta in enumerate(event.inputs):
                flow.consumers.setdefault(meta.vid, []).append((event.index, position))
            for meta in event.outputs:
                flow.producer[meta.vid] = event.index
        return flow

    def made_by(self, vid: int) -> OpEvent | None:
        index = self.producer.get(vid)
        return None if index is None else self.recording.events[index]

    def users(self, vid: int) -> list[tuple[OpEvent, int]]:
        return [(self.recording.events[i], p) for i, p in self.consumers.get(vid, [])]

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
        if tensor is not None and tensor.numel == 1:
            kept = self.value(tensor)
            if kept is not None:
                return float(kept.reshape(()).double())
        return None
