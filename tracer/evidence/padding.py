"""Padding from evidence: which positions of each sequence are padding, and what told us.

In order of strength: an embedding's `padding_idx` (a HuggingFace config's `pad_token_id`
reaches the embedding the same way) applied to the ids it embeds; a 0/1, boolean or
additive mask input of any name, whose padding value is read from the run it forms at one
end of each row (right or left padding); and, failing both, token ids with a run of 0 at
one end that 0 makes nowhere else. Packed document ids (`evidence.documents`) tell their
padding by a negative id at one end of each row. A mask's own pattern (keys hidden from every query of
one sample) is read by the mask checks themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from ..blocks import LAYOUT_OPS
from .documents import document_ids
from .sources import ADDITIVE_HIDING, data_inputs, document_id_inputs, is_mask_like

if TYPE_CHECKING:
    from ..analysis import Reading
    from ..events import Source


@dataclass(frozen=True)
class Padding:
    """Padding positions of one sequence: bool (batch, positions), True = padding."""

    pad: torch.Tensor
    told: str  # what told us, for messages: "pad id 1 (nn.Embedding padding_idx)"


def find_padding(reading: "Reading") -> dict[str, Padding]:
    """Padding per sequence id (an `Axis.seq`), from the strongest evidence available."""
    found: dict[str, Padding] = {}
    for seq, padding in _from_pad_ids(reading):
        found.setdefault(seq, padding)
    for seq, padding in _from_config(reading):
        found.setdefault(seq, padding)
    for seq, padding in _from_lengths(reading):
        found.setdefault(seq, padding)
    for seq, padding in _from_document_ids(reading):
        found.setdefault(seq, padding)
    for seq, padding in _from_mask_inputs(reading, found):
        found.setdefault(seq, padding)
    for seq, padding in _from_zero_runs(reading):
        found.setdefault(seq, padding)
    return found


def _batch_and_sequence(reading: "Reading", axes: tuple[int, ...]) -> tuple[int, int, str] | None:
    """(batch dim, sequence dim, sequence id) of a rank-2 value, or None if its axes do not say."""
    table = reading.table
    if len(axes) != 2:
        return None
    kinds = [table.get(axis) for axis in axes]
    seq_dims = [d for d, record in enumerate(kinds) if record.kind in ("seq", "pos") and record.seq]
    batch_dims = [d for d, record in enumerate(kinds) if record.kind in ("batch", "one")]
    if len(seq_dims) != 1 or len(batch_dims) != 1:
        return None
    base = table.get(table.base_of(axes[seq_dims[0]]))
    return batch_dims[0], seq_dims[0], base.seq or kinds[seq_dims[0]].seq


def _as_batch_first(value: torch.Tensor, batch_dim: int) -> torch.Tensor:
    return value if batch_dim == 0 else value.t()


def _from_pad_ids(reading: "Reading"):
    for event in reading.recording.ops("embedding"):
        pad_id = event.arg(2, "padding_idx")
        ids = event.inputs[0] if event.inputs else None
        if not isinstance(pad_id, int) or ids is None:
            continue
        value = reading.recording.values.get(ids.vid)
        placed = _batch_and_sequence(reading, reading.axes_of(ids))
        if value is None or placed is None:
            continue
        batch_dim, _, seq = placed
        if pad_id < 0:
            pad_id += reading.recording.events[event.index].inputs[1].shape[0]
        yield seq, Padding(_as_batch_first(value == pad_id, batch_dim), f"pad id {pad_id} (the embedding's padding_idx)")


def _from_config(reading: "Reading"):
    """A HuggingFace config's `pad_token_id`, where the ids hold it only as runs at one end."""
    stated = {call.attributes["pad_token_id"] for call in reading.recording.module_calls
              if "pad_token_id" in call.attributes}
    for pad_id in stated:
        for seq, ids in _token_inputs(reading):
            pad = _end_runs(ids == pad_id, zero_means_pad=False)
            if pad is not None and bool((pad == (ids == pad_id)).all()):
                yield seq, Padding(pad, f"pad id {pad_id} (the config's pad_token_id)")


def _from_lengths(reading: "Reading"):
    """Each sample's length, an integer input compared with a sequence's positions
    (`arange(T)[None, :] < lengths[:, None]`, whichever comparison): positions at or past a
    sample's length are its padding."""
    for event in reading.recording.ops("lt", "le", "gt", "ge"):
        if len(event.inputs) != 2 or not event.outputs:
            continue
        placed = _batch_and_sequence(reading, reading.axes_of(event.outputs[0]))
        if placed is None:
            continue
        batch_dim, seq_dim, seq = placed
        size_b, size_t = event.outputs[0].shape[batch_dim], event.outputs[0].shape[seq_dim]
        for counts, positions in (event.inputs, event.inputs[::-1]):
            lengths = _input_behind(reading, counts.vid)
            arange = reading.flow.value(positions)
            if lengths is None or arange is None or lengths.shape != (size_b,) or arange.numel() != size_t:
                continue
            if lengths.is_floating_point() or not bool(((lengths >= 0) & (lengths <= size_t)).all()):
                continue
            if bool((arange.reshape(-1) == torch.arange(size_t)).all()) and bool((lengths < size_t).any()):
                pad = torch.arange(size_t)[None, :] >= lengths[:, None]
                yield seq, Padding(pad, "the lengths input compared with the positions")
                break


def _from_document_ids(reading: "Reading"):
    """Document ids (`evidence.documents`) whose negative id fills a run at one end of each row it
    is in: the positions after (or before) the last packed document are padding (NaViT's -1)."""
    for source in document_id_inputs(reading.recording):
        value = reading.recording.values.get(source.meta.vid)
        placed = _batch_and_sequence(reading, reading.axes_of(source.meta)) or _by_shape(reading, value.shape)
        ids = document_ids(_as_batch_first(value, placed[0])) if placed is not None else None
        if ids is None or not bool((ids < 0).any()):
            continue
        pad = ids < 0
        ends = pad.flip(1).int().cumprod(1).flip(1).bool() | pad.int().cumprod(1).bool()
        if bool((ends == pad).all()) and not bool(pad.all(dim=1).any()):
            yield placed[2], Padding(pad, f"the negative ids of the document ids {source.name}")


def _input_behind(reading: "Reading", vid: int) -> torch.Tensor | None:
    """The value of the forward's input that `vid` is a view or a cast of, a few ops back, or None."""
    source = source_behind(reading, vid)
    return reading.recording.values.get(source.meta.vid) if source is not None and source.kind == "input" else None


def source_behind(reading: "Reading", vid: int, steps: int = 4) -> "Source | None":
    """The source (input, parameter, buffer) `vid` is a view, slice or cast of, a few ops back, or None:
    the ids a chunk was cut from, the cache buffer a write goes through."""
    for _ in range(steps):
        source = reading.recording.sources.get(vid)
        if source is not None:
            return source
        event = reading.flow.made_by(vid)
        if event is None or event.op not in VIEWS_AND_CASTS or not event.inputs:
            return None
        vid = event.inputs[0].vid
    return None


VIEWS_AND_CASTS = LAYOUT_OPS | {"getitem", "narrow", "select", "split", "chunk", "unbind", "long", "int"}


def _token_inputs(reading: "Reading"):
    """(sequence id, ids as (batch, T)) of every rank-2 integer data input."""
    recording = reading.recording
    for source in data_inputs(recording):
        value = recording.values.get(source.meta.vid)
        if value is None or value.dim() != 2 or value.is_floating_point():
            continue
        placed = _batch_and_sequence(reading, reading.axes_of(source.meta))
        if placed is not None:
            yield placed[2], _as_batch_first(value, placed[0])


def _from_mask_inputs(reading: "Reading", known: dict[str, Padding]):
    recording = reading.recording
    for source in recording.sources.values():
        value = recording.values.get(source.meta.vid)
        if source.kind != "input" or value is None or value.dim() != 2 or not is_mask_like(source, value) or \
                _never_hides(reading, source.meta.vid):
            continue
        placed = _batch_and_sequence(reading, reading.axes_of(source.meta)) or _by_shape(reading, value.shape)
        if placed is None:
            continue
        batch_dim, _, seq = placed
        mask = _as_batch_first(value, batch_dim)
        if mask.is_floating_point() and bool((mask < ADDITIVE_HIDING).any()):
            pad = mask < ADDITIVE_HIDING
        elif seq in known:
            pad = _agreeing(mask.bool(), known[seq].pad)
        else:
            pad = _end_runs(mask.bool(), zero_means_pad=mask.dtype != torch.bool)
            if pad is None and mask.dtype != torch.bool:
                pad = _zeros_anywhere(mask)
        if pad is not None:
            yield seq, Padding(pad, f"the mask input {source.name}")


def _never_hides(reading: "Reading", vid: int) -> bool:
    """Whether every use of a 0/1 input reads both of its values: it picks, position by position,
    between two values the model computed (`where(modality == 1, text(ids), patch(x))`), or looks
    up an embedding row (BERT's `token_type_ids` of a sentence pair). It tells what each position
    is, not which are padding."""
    flow, frontier, uses = reading.flow, [vid], []
    for _ in range(SELECTION_DEPTH):
        following = []
        for current in frontier:
            for event, position in flow.users(current):
                if event.op in SELECTION_PATH or (event.op in SLICES and position == 0):
                    following.extend(meta.vid for meta in event.outputs)
                else:
                    uses.append((event, position))
        frontier = following
    return not frontier and bool(uses) and all(_reads_both(flow, event, position) for event, position in uses)


def _reads_both(flow, event, position: int) -> bool:
    if event.op == "embedding":
        return position == 0
    return event.op == "where" and position == 0 and len(event.inputs) == 3 and \
        all(flow.constant(meta) is None for meta in event.inputs[1:])


SELECTION_DEPTH = 6
SELECTION_PATH = LAYOUT_OPS | {"eq", "ne", "logical_not", "bitwise_not", "bool", "long", "int"}
SLICES = frozenset({"getitem", "narrow", "select"})  # of the mask itself (as the index, it hides)


def _by_shape(reading: "Reading", shape: tuple[int, ...]) -> tuple[int, int, str] | None:
    """A mask whose axes never met the data (it went through ops without axis rules) belongs to
    the one data input whose (batch, sequence) sizes it has, in the conventional (B, T) order.
    Positions of any kind count as candidates (the steps of an observation history, patches): a
    mask as long as two of them says nothing about which it pads."""
    table, matches = reading.table, {}
    for vid, roles in reading.layout.roles.items():
        axes = reading.inputs.axes[vid]
        if "batch" not in roles or table.get(axes[roles.index("batch")]).size != shape[0]:
            continue
        for axis in axes:
            if table.is_positions(axis) and table.get(axis).size == shape[1]:
                matches[table.sequence_of(axis)] = table.get(axis).seq
    seq = next(iter(matches.values())) if len(matches) == 1 else None
    return (0, 1, seq) if seq else None


def _agreeing(mask: torch.Tensor, pad: torch.Tensor) -> torch.Tensor | None:
    """The mask read with the polarity that matches padding already known."""
    if mask.shape != pad.shape:
        return None
    for candidate in (mask, ~mask):
        if bool((candidate == pad).all()):
            return candidate
    return None


def _end_runs(mask: torch.Tensor, zero_means_pad: bool) -> torch.Tensor | None:
    """Which value of a boolean (batch, T) mask is padding: one that only ever forms a run at
    the same end of a row (right or left padding) while the other value holds that row's other
    end in every sample. When both values read so: the one some sample lacks (the longest
    sequence has no padding), then right padding over left, then the dtype's convention
    (0 = pad for 0/1 masks, True = pad for boolean ones)."""
    readings = []
    for pad, is_zero in ((mask, False), (~mask, True)):
        if not bool(pad.any()) or bool(pad.all(dim=1).any()):
            continue
        right = bool((~pad[:, 0]).all()) and _runs_at_end(pad)
        left = bool((~pad[:, -1]).all()) and _runs_at_end(pad.flip(1))
        if right or left:
            readings.append((bool(pad.any(dim=1).all()), not right, is_zero != zero_means_pad, pad))
    if not readings:
        return None
    return min(readings, key=lambda reading: reading[:3])[3]


def _zeros_anywhere(mask: torch.Tensor) -> torch.Tensor | None:
    """A 0/1 number mask (an `attention_mask`'s convention: 0 = padding) whose zeros are not one run at
    an end: patches of an image padded at its right and bottom, flattened row by row. Read so when
    every sample keeps some 1 and some sample has a 0; a boolean mask has no such convention."""
    pad = mask == 0
    return pad if bool(pad.any()) and not bool(pad.all(dim=1).any()) else None


def _runs_at_end(pad: torch.Tensor) -> bool:
    """Each row's True cells form one run that ends at the row's last position."""
    trailing = pad.flip(1).int().cumprod(1).flip(1).bool()
    return bool((trailing == pad).all())


def _from_zero_runs(reading: "Reading"):
    for seq, ids in _token_inputs(reading):
        pad = _end_runs(ids == 0, zero_means_pad=False)
        if pad is not None and bool((pad == (ids == 0)).all()):
            yield seq, Padding(pad, "runs of token 0 at one end of the ids")


def image_padding(reading: "Reading", batch: int, grid: tuple[int, int] | None) -> Padding | None:
    """Padding of flattened image keys from a (B, rows, columns) 0/1 or boolean mask input (an image
    processor's `pixel_mask`): the value that only ever fills some last rows and columns of each
    image is the padding, whatever the input is called. Asked by the mask checks for keys that
    are a flattened grid, since only they know which keys those are."""
    if grid is None:
        return None
    for source in reading.recording.sources.values():
        value = reading.recording.values.get(source.meta.vid)
        if source.kind != "input" or value is None or tuple(value.shape) != (batch, *grid):
            continue
        if not is_mask_like(source, value):
            continue
        pad = image_pad_reading(value)
        if pad is not None:
            return Padding(pad.flatten(1), f"the image mask input {source.name}")
    return None


def image_pad_reading(value: torch.Tensor) -> torch.Tensor | None:
    """The padding of a (B, rows, columns) mask, True at padding: the one value that fills only some
    last rows and columns of each image, with some real pixel left in every image; None if no
    single value reads so."""
    readings = [pad for pad in (value == 0, value != 0)
                if bool(pad.any()) and not bool(pad.flatten(1).all(dim=1).any()) and image_border(pad)]
    return readings[0] if len(readings) == 1 else None


def runs_at_an_end(shown: torch.Tensor) -> bool:
    """Each row's True cells form one run at its end, or each row's at its start."""
    at_end = shown.flip(-1).int().cumprod(-1).flip(-1).bool()
    at_start = shown.int().cumprod(-1).bool()
    return bool((at_end == shown).all()) or bool((at_start == shown).all())


def image_border(shown: torch.Tensor) -> bool:
    """Each (rows, columns) grid shows exactly some last rows and some last columns: image padding
    (images are padded at the bottom and the right, so the real pixels, a block at the top left,
    never read as a border)."""
    rows, columns = shown.all(dim=2), shown.all(dim=1)
    border = rows[:, :, None] | columns[:, None, :]
    return bool((border == shown).all()) and _runs_at_end(rows) and _runs_at_end(columns)
