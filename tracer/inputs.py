"""Axes for the forward pass's inputs, from the roles the evidence engine settled.

Each data input's dims get the role `tracer.evidence.layout` settled for them: a batch axis
of its own per input (the forward pass unites the batches it combines; evidence about one
input's batch must not spill onto a dim of another that only convention called the batch),
a sequence of its own per input (so an encoder's source never passes for a decoder's
target), features. Everything else (masks, position
ids, parameters, buffers) gets axes of unknown meaning that adopt what they meet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .axes import INPUT_FEATURES, AxisTable
from .events import Recording
from .evidence.layout import Layout


@dataclass
class InputAxes:
    axes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # vid -> axes of every source
    dims: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # axis -> (vid, dim)s of data inputs


def assign_input_axes(recording: Recording, table: AxisTable, layout: Layout) -> InputAxes:
    """Axes for every source value (inputs, parameters, buffers, external tensors)."""
    assigned = InputAxes()
    sequences = [vid for vid, roles in layout.roles.items() if "seq" in roles]
    for source in recording.sources.values():
        shape = source.meta.shape
        if source.meta.vid not in layout.roles:  # parameters, buffers, masks: what the loop below makes of them
            assigned.axes[source.meta.vid] = tuple(table.new("one", 1) if size == 1 else table.new("unknown", size)
                                                   for size in shape)
            continue
        roles = layout.roles.get(source.meta.vid, ())
        axes = []
        for dim, size in enumerate(shape):
            role = roles[dim] if dim < len(roles) else ""
            if size == 1:
                axis = table.new("one", 1)
            elif role == "batch":  # each input's own: two inputs' batches become one where the forward meets them
                axis = table.new("batch", size, name="B", label="the batch")
            elif role == "seq":
                several = len(sequences) > 1 or roles.count("seq") > 1
                name = f"T_{source.name}" if several else "T"
                if roles.count("seq") > 1:
                    name += f"{dim}"
                axis = table.new("seq", size, name=name, seq=f"{source.name}:{dim}" if roles.count("seq") > 1
                                 else source.name, label=f"positions of input {source.name}")
            elif role == "feature":
                axis = table.new("feature", size, name="d", label=f"{INPUT_FEATURES} {source.name}")
            else:
                axis = table.new("unknown", size)
            if source.meta.vid in layout.roles and size != 1:
                assigned.dims.setdefault(axis, []).append((source.meta.vid, dim))
            axes.append(axis)
        assigned.axes[source.meta.vid] = tuple(axes)
    return assigned
