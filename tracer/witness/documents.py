"""Packed documents: several sequences laid end to end in one row, each to be read on its own.

A correct model keeps packed documents apart as if each were a sample of its own. They are told
by an input (`evidence.documents`): document ids over the positions, or offsets, a 1-D integer
input starting at 0, rising, that ends at the length of a data input with no batch
(flash-attention's `cu_seqlens`), which the forward reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..evidence.documents import compared, document_ids
from ..evidence.sources import document_id_inputs


@dataclass(frozen=True)
class Documents:
    """The documents of one data input's positions."""

    position: int  # the data input whose content the witness changes, among the forward's tensors
    ids: torch.Tensor  # (B, T): the document of each position, -1 where none (padding)
    told: str  # the input that tells them, in words
    told_position: int  # ... and its position among the forward's tensors
    offsets: bool  # told by offsets (cu_seqlens) rather than an id per position


def find_documents(analysis, facts, positions: list[int]) -> Documents | None:
    """The packed documents of a data input, told by another input (ids or offsets), or None."""
    values = analysis.recording.values
    told_by_ids = {source.meta.vid for source in document_id_inputs(analysis.recording)}
    for told_position, vid in enumerate(positions):
        value = values.get(vid)
        if value is None or value.is_floating_point() or value.dtype == torch.bool or vid in positions[:told_position]:
            continue
        for position, data in enumerate(facts.data):
            if data is None or data.vid == vid or data.seq is None:
                continue
            shape = analysis.recording.sources[data.vid].meta.shape
            size_b = shape[data.batch] if data.batch is not None else 1
            ids = _from_offsets(value, shape[data.seq], size_b) if value.dim() == 1 else None
            offsets = ids is not None
            if ids is None:
                ids = _from_ids(value, size_b, shape[data.seq]) if vid in told_by_ids else None
                if ids is None:
                    continue
            elif not compared(analysis.flow, vid, outer=False):
                continue
            padding = facts.padding.get(data.sequence, (None, False))[0]
            if padding is not None and padding.shape == ids.shape:
                ids = ids.masked_fill(padding, -1)
            return Documents(position, ids, facts.names[told_position], told_position, offsets)
    return None


def _from_ids(value: torch.Tensor, size_b: int, size_t: int) -> torch.Tensor | None:
    """(B, T) document ids of a data input's positions."""
    ids = document_ids(value)
    return ids if ids is not None and tuple(ids.shape) == (size_b, size_t) else None


def _from_offsets(value: torch.Tensor, size_t: int, size_b: int) -> torch.Tensor | None:
    """(1, T) document ids from offsets [0, end of the first, ..., T]."""
    offsets = value.long()
    if size_b != 1 or offsets.numel() < 3 or int(offsets[0]) != 0 or int(offsets[-1]) != size_t or \
            not bool((offsets[1:] > offsets[:-1]).all()):
        return None
    lengths = offsets[1:] - offsets[:-1]
    return torch.repeat_interleave(torch.arange(lengths.numel()), lengths).reshape(1, size_t)


def changed_document(ids: torch.Tensor) -> torch.Tensor:
    """(B, T) True at the document of each row that packs several which the witness changes.

    A row of three or more changes its second document: a causal model that forgot the document
    mask lets the third read it, a bidirectional one lets the first, and a design that shares its
    first segment with every other (a claim each evidence snippet reads) is not taken for a leak.
    A row of two can only show the causal leak through its first document, so that one changes."""
    changed = torch.zeros_like(ids, dtype=torch.bool)
    for documents, marks in zip(ids, changed):
        present = documents[documents >= 0].unique_consecutive()
        if present.numel() >= 2:
            marks.copy_(documents == present[1 if present.numel() >= 3 else 0])
    return changed
