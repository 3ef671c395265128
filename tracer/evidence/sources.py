"""Which inputs carry data and which only describe other inputs, read from dtypes and values.

Token ids, float vectors and images are *data*: their dims are a batch, sequences, features.
A boolean or 0/1 tensor, an additive 0/-inf mask and an arange-like tensor of position ids
only describe the data (padding, positions): they bring no axes of their own and adopt the
axes they meet. Names are never consulted: `m`, `keep` and `attention_mask` are all masks
when their values say so.
"""

from __future__ import annotations

import weakref

import torch

from ..events import Recording, Source

# The layouts a data input of this kind and rank may have, the conventional one first.
# The evidence engine picks one; a rank without candidates gets per-dim evidence only.
CANDIDATES: dict[tuple[str, int], tuple[tuple[str, ...], ...]] = {
    ("ids", 2): (("batch", "seq"), ("seq", "batch")),
    ("float", 2): (("seq", "feature"), ("batch", "seq"), ("batch", "feature")),  # (T, d), raw audio, vectors
    # ... and an unbatched (C, H, W) image, which the model batches itself (segment-anything)
    ("float", 3): (("batch", "seq", "feature"), ("seq", "batch", "feature"), ("batch", "feature", "seq"),
                   ("feature", "", "")),
}
ADDITIVE_HIDING = -1e3  # an additive mask's hiding value lies below this


def is_floating(source: Source) -> bool:
    return source.meta.dtype.startswith(("float", "bfloat"))


# id(kept value) -> (a weak reference to it, whether it is mask-like): a recording's copies never
# change, and the analysis and the witnesses ask about each input several times (a few tensor
# passes each). The reference tells a live value from a dead one whose id was reused.
_MASK_LIKE: dict[int, tuple[weakref.ref, bool]] = {}


def is_mask_like(source: Source, value: torch.Tensor | None) -> bool:
    """A tensor that only describes data: boolean, 0/1, additive 0/-inf, or arange-like ids."""
    if source.meta.dtype == "bool":
        return True
    if value is None or value.numel() == 0 or value.is_complex():
        return False
    known = _MASK_LIKE.get(id(value))
    if known is not None and known[0]() is value:
        return known[1]
    found = _values_mask_like(value)
    key = id(value)
    _MASK_LIKE[key] = (weakref.ref(value, lambda _, key=key: _forget(key)), found)
    return found


def _forget(key: int) -> None:
    entry = _MASK_LIKE.get(key)
    if entry is not None and entry[0]() is None:
        del _MASK_LIKE[key]


def _values_mask_like(value: torch.Tensor) -> bool:
    if bool(((value == 0) | (value == 1)).all()):
        return True
    if value.is_floating_point():  # an additive mask: 0 where visible, one very negative value elsewhere
        low, high = (float(v) for v in torch.aminmax(value))
        return high == 0 and low < ADDITIVE_HIDING and bool(((value == 0) | (value == low)).all())
    if value.dim() >= 1:
        positions = torch.arange(value.shape[-1], device=value.device).expand_as(value)
        return bool((value == positions).all())
    return False


def data_kind(source: Source) -> str:
    return "float" if is_floating(source) else "ids"


def data_inputs(recording: Recording) -> list[Source]:
    """The forward pass's inputs that carry data, in recording order (read once per recording)."""
    cache = recording.__dict__.setdefault("_data_inputs", {})
    if "found" not in cache:
        cache["found"] = _data_inputs(recording)
    return cache["found"]


def _data_inputs(recording: Recording) -> list[Source]:
    told = {source.meta.vid for source in document_id_inputs(recording)}
    found = []
    for source in recording.sources.values():
        if source.kind != "input" or not source.meta.shape or source.meta.vid in told:
            continue
        if source.meta.dtype.startswith(("complex",)):
            continue
        if is_mask_like(source, recording.values.get(source.meta.vid)):
            continue
        found.append(source)
    return found


def document_id_inputs(recording: Recording) -> list[Source]:
    """Inputs that number packed documents (`evidence.documents`): like a mask, they describe the
    data's positions rather than carry data (read once per recording)."""
    cache = recording.__dict__.setdefault("_data_inputs", {})
    if "documents" not in cache:
        cache["documents"] = _document_id_inputs(recording)
    return cache["documents"]


def _document_id_inputs(recording: Recording) -> list[Source]:
    from ..dataflow import Dataflow
    from .documents import document_ids, reads_as_document_ids

    candidates = [source for source in recording.sources.values() if source.kind == "input" and
                  len(source.meta.shape) in (1, 2) and document_ids(recording.values.get(source.meta.vid)) is not None]
    if not candidates:
        return []
    flow = Dataflow.of(recording)
    return [source for source in candidates if reads_as_document_ids(flow, source.meta.vid, recording.values.get(source.meta.vid))]


def candidates(source: Source) -> tuple[tuple[str, ...], ...]:
    """The layouts `source` may have, conventional first; () when only per-dim evidence applies."""
    return CANDIDATES.get((data_kind(source), len(source.meta.shape)), ())
