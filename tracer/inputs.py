"""What the model's inputs mean: their axes, and where their padding is.

Batch-first by default (`layout="seq-first"` swaps the first two dims). Token ids and
float inputs each bring a sequence of their own, so an encoder's source and a decoder's
target never pass for one another; masks, position ids and other 0/1 or arange-like
inputs bring no sequence and adopt the axes they meet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .axes import AxisTable
from .events import Recording, Source

LAYOUTS = ("batch-first", "seq-first")
MASK_WORDS = ("mask", "position", "type", "pad")


@dataclass
class InputMeaning:
    axes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # vid -> axes
    padding: dict[str, torch.Tensor] = field(default_factory=dict)  # sequence id -> bool (B, T), True = pad
    pad_names: dict[str, str] = field(default_factory=dict)  # sequence id -> what told us


def _is_mask_like(source: Source, value: torch.Tensor | None) -> bool:
    if source.meta.dtype == "bool" or any(word in source.name.lower() for word in MASK_WORDS):
        return True
    if value is None or value.numel() == 0:
        return False
    if bool(((value == 0) | (value == 1)).all()):
        return True
    if not value.is_floating_point() and value.dim() >= 1:
        positions = torch.arange(value.shape[-1]).expand_as(value)
        return bool((value == positions).all())
    return False


def _padding_from_mask(source: Source, value: torch.Tensor) -> torch.Tensor | None:
    """A (B, T) 0/1 or bool mask as True-is-padding, by the convention its name and dtype imply."""
    if value.dim() != 2 or not bool(((value == 0) | (value == 1)).all()):
        return None
    ones_mean_pad = value.dtype == torch.bool and "pad" in source.name.lower()
    pad = value.bool() if ones_mean_pad else ~value.bool()
    return pad if bool(pad.any()) and not bool(pad.all()) else None


def _padding_from_tokens(value: torch.Tensor) -> torch.Tensor | None:
    """Trailing runs of token 0 (a value seen nowhere else) as padding."""
    if value.dim() != 2 or value.is_floating_point() or value.shape[1] < 2:
        return None
    zero = value == 0
    trailing = zero.flip(1).cumprod(1).flip(1).bool()
    if not bool(trailing.any()) or bool((zero & ~trailing).any()) or bool(trailing.all()):
        return None
    return trailing


def assign_input_axes(recording: Recording, table: AxisTable, layout: str = "batch-first") -> InputMeaning:
    """Axes for every source value (inputs, parameters, buffers, external tensors)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    meaning = InputMeaning()
    batch_axes: dict[int, int] = {}
    inputs = [s for s in recording.sources.values() if s.kind == "input"]
    sequence_inputs = []
    for source in inputs:
        value = recording.values.get(source.meta.vid)
        if not _is_mask_like(source, value) and len(source.meta.shape) >= 2:
            sequence_inputs.append(source)
    for source in recording.sources.values():
        shape = source.meta.shape
        axes = [table.new("one" if size == 1 else "unknown", size) for size in shape]
        if source.kind == "input" and len(shape) >= 2:
            batch_dim, seq_dim = (0, 1) if layout == "batch-first" else (1, 0)
            size = shape[batch_dim]
            if size not in batch_axes:
                batch_axes[size] = table.new("batch", size, name="B", label="the batch")
            axes[batch_dim] = batch_axes[size]
            if source in sequence_inputs:
                name = "T" if len(sequence_inputs) == 1 else f"T_{source.name}"
                axes[seq_dim] = table.new("seq", shape[seq_dim], name=name, seq=source.name,
                                          label=f"positions of input {source.name}")
                if len(shape) == 3 and source.meta.dtype.startswith(("float", "bfloat")):
                    axes[2] = table.new("feature", shape[2], name="d", label=f"features of input {source.name}")
                value = recording.values.get(source.meta.vid)
                pad = _padding_from_tokens(value) if value is not None else None
                if pad is not None and layout == "batch-first":
                    meaning.padding[source.name] = pad
                    meaning.pad_names[source.name] = f"trailing 0 tokens in {source.name}"
        meaning.axes[source.meta.vid] = tuple(axes)
    _pair_masks_with_sequences(recording, meaning, inputs, sequence_inputs)
    return meaning


def _pair_masks_with_sequences(recording: Recording, meaning: InputMeaning, inputs: list[Source],
                               sequence_inputs: list[Source]) -> None:
    """A 0/1 mask input describes the padding of the sequence input of its shape."""
    for source in inputs:
        value = recording.values.get(source.meta.vid)
        if source in sequence_inputs or value is None:
            continue
        pad = _padding_from_mask(source, value)
        if pad is None:
            continue
        matches = [s for s in sequence_inputs if s.meta.shape[:2] == tuple(pad.shape)]
        if len(matches) == 1:
            meaning.padding[matches[0].name] = pad
            meaning.pad_names[matches[0].name] = f"the 0/1 input {source.name}"
        elif len(matches) > 1:
            # e.g. attention_mask next to input_ids and decoder_input_ids: pick by name
            named = [s for s in matches if source.name.replace("attention_mask", "input_ids") == s.name
                     or source.name.replace("_mask", "") in s.name]
            if len(named) == 1:
                meaning.padding[named[0].name] = pad
                meaning.pad_names[named[0].name] = f"the 0/1 input {source.name}"
