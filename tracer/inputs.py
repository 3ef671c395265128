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


def _rank_fits(source: Source) -> bool:
    """Token ids are (B, T); float inputs (T, d) or (B, T, d). Other ranks (images, heads) stay unnamed."""
    floating = source.meta.dtype.startswith(("float", "bfloat"))
    return len(source.meta.shape) in ((2, 3) if floating else (2,))


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
    batch_dim, seq_dim = (0, 1) if layout == "batch-first" else (1, 0)
    inputs = [s for s in recording.sources.values() if s.kind == "input"]
    sequences = [s for s in inputs if _rank_fits(s) and not _is_mask_like(s, recording.values.get(s.meta.vid))]
    batch_axes: dict[int, int] = {}
    for source in recording.sources.values():
        shape = source.meta.shape
        axes = [table.new("one" if size == 1 else "unknown", size) for size in shape]
        if source in sequences:
            name = "T" if len(sequences) == 1 else f"T_{source.name}"
            floating = source.meta.dtype.startswith(("float", "bfloat"))
            if floating and len(shape) == 2:  # one sequence of vectors, e.g. the course's Q, K, V
                batch_dim_here, seq_dim_here = None, 0
            else:
                batch_dim_here, seq_dim_here = batch_dim, seq_dim
            if batch_dim_here is not None:
                size = shape[batch_dim_here]
                if size not in batch_axes:
                    batch_axes[size] = table.new("batch", size, name="B", label="the batch")
                axes[batch_dim_here] = batch_axes[size]
            axes[seq_dim_here] = table.new("seq", shape[seq_dim_here], name=name, seq=source.name,
                                           label=f"positions of input {source.name}")
            if floating and len(shape) == len({batch_dim_here, seq_dim_here} - {None}) + 1:
                axes[-1] = table.new("feature", shape[-1], name="d", label=f"features of input {source.name}")
            value = recording.values.get(source.meta.vid)
            if value is not None and batch_dim_here is not None and value.dim() == 2:
                pad = _padding_from_tokens(value if layout == "batch-first" else value.t())
                if pad is not None:
                    meaning.padding[source.name] = pad
                    meaning.pad_names[source.name] = f"trailing 0 tokens in {source.name}"
        meaning.axes[source.meta.vid] = tuple(axes)
    _pair_masks_with_sequences(recording, meaning, inputs, sequences, batch_dim, seq_dim)
    return meaning


def _pair_masks_with_sequences(recording: Recording, meaning: InputMeaning, inputs: list[Source],
                               sequences: list[Source], batch_dim: int, seq_dim: int) -> None:
    """A (B, T) 0/1 mask input describes the padding of the sequence input with that batch and length."""
    for source in inputs:
        value = recording.values.get(source.meta.vid)
        if source in sequences or value is None:
            continue
        pad = _padding_from_mask(source, value)
        if pad is None:
            continue
        matches = [s for s in sequences if len(s.meta.shape) > 2 or not s.meta.dtype.startswith(("float", "bfloat"))]
        matches = [s for s in matches if (s.meta.shape[batch_dim], s.meta.shape[seq_dim]) == tuple(pad.shape)]
        if len(matches) > 1:  # e.g. attention_mask beside input_ids and decoder_input_ids
            stem = source.name.replace("attention_mask", "input_ids").replace("_mask", "")
            matches = [s for s in matches if s.name == stem or stem in s.name] or matches[:0]
        if len(matches) == 1:
            meaning.padding[matches[0].name] = pad
            meaning.pad_names[matches[0].name] = f"the 0/1 input {source.name}"
