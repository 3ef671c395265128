"""What a mask is, in words, read from which scores it hides: `causal + padding over keys`.

The hidden pattern is brought to `(batch, rest, T_q, T_k)` by the checks' own placement, then
taken apart: query rows hidden whole are padding over queries, key columns hidden from every
remaining query are padding over keys, and what is left is judged as a band around the
diagonal (causal, causal with the diagonal hidden, a window) or, failing that, "other". So a
label names every part a mask has, whatever the order the code combined them in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from ..blocks import AttentionBlock, MaskUse
from ..evidence.masks import pattern_of

if TYPE_CHECKING:
    from ..analysis import Analysis


def mask_kind(analysis: "Analysis", block: AttentionBlock, use: MaskUse) -> str:
    """`causal`, `padding over keys`, `causal + padding over keys`, `causal window of 3 keys`, `other`, ..."""
    if use.kind == "is_causal":
        return "causal"
    pattern = pattern_of(analysis, block, use)
    if pattern is not None:
        hidden, offset = pattern.hidden, pattern.offset
    elif use.hidden is not None and use.hidden.dim() >= 2:  # not placed: the table's last two dims
        hidden, offset = use.hidden.reshape(-1, 1, *use.hidden.shape[-2:]), None
    else:
        return "mask"
    return describe_hidden(hidden.bool(), offset)


def describe_hidden(hidden: torch.Tensor, offset: int | None = None) -> str:
    """The parts of a `(batch, rest, T_q, T_k)` hidden pattern, joined by `+`.

    `offset`: query t is key t + offset; None when unknown (then the alignment under which the
    band is plainly causal, if one is, else queries and keys starting together).
    """
    if not bool(hidden.any()):
        return "mask (hides nothing)"
    if bool(hidden.all()):
        return "hides every key"
    rows = _whole_rows(hidden)
    columns = _whole_columns(hidden, rows)
    live = ~rows[..., None] & ~columns[..., None, :]
    parts = []
    if bool((hidden & live).any()):
        words, band = _band(hidden & live, live, offset)
        parts.append(words)
        if band is not None:  # rows and columns the band hides whole are its own, not padding
            rows = rows & ~_whole_rows(band)
            columns = columns & ~_whole_columns(band, rows)
    padding = [word for word, found in (("keys", columns), ("queries", rows)) if bool(found.any())]
    if padding:
        parts.append("padding over " + " and ".join(padding))
    return " + ".join(parts)


def _whole_rows(hidden: torch.Tensor) -> torch.Tensor:
    """Queries that see no key at all, as (..., T_q); none for a pattern without a query dim."""
    if hidden.shape[-2] == 1:
        return torch.zeros(hidden.shape[:-1], dtype=torch.bool)
    return hidden.all(dim=-1)


def _whole_columns(hidden: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """Keys that no query outside `rows` sees, as (..., T_k); none for a pattern without a key dim."""
    if hidden.shape[-1] == 1:
        return torch.zeros((*hidden.shape[:-2], 1), dtype=torch.bool)
    return (hidden | rows[..., None]).all(dim=-2)


def _band(rest: torch.Tensor, live: torch.Tensor, offset: int | None) -> tuple[str, torch.Tensor | None]:
    """The scores left hidden once padding is taken out, in words, with the (T_q, T_k) pattern
    they were read as (None for "other"): a band around the diagonal, perhaps past a prefix
    of keys every query sees."""
    size_q, size_k = rest.shape[-2:]
    if size_q == 1 or size_k == 1:
        return "other", None
    rest, live = torch.broadcast_tensors(rest, live)
    column = torch.arange(size_k)[None, :]
    seen = (~rest | ~live).flatten(0, -2).all(dim=0)  # keys no live query is hidden from
    prefix = int(seen.int().cumprod(0).sum())
    for start in (0, prefix) if prefix > 1 else (0,):
        keys = (column >= start).expand(rest.shape)
        shifts = [offset] if offset is not None else [0, size_k - size_q]
        fits = [(shift, found) for shift in shifts if (found := _fit(rest, live & keys, shift)) is not None]
        if not fits:
            continue
        shift, (ahead, back) = next((fit for fit in fits if fit[1][0] == 0), fits[0])
        band = _band_pattern(size_q, size_k, shift, ahead, back) & (column >= start)
        words = _band_words(ahead, back)
        return (words if start == 0 else f"{words} after a prefix of {start} keys"), band
    return "other", None


def _fit(rest: torch.Tensor, live: torch.Tensor, offset: int) -> tuple[int | None, int | None] | None:
    """(ahead, back) of the band that hides exactly `rest` on `live`, or None if none does.

    With gap = key - query - offset, the band shows the gaps from -back to ahead (None: no
    bound on that side) and hides every gap beyond them.
    """
    size_q, size_k = rest.shape[-2:]
    gap = (torch.arange(size_k)[None, :] - torch.arange(size_q)[:, None] - offset).expand(rest.shape)
    hidden, shown = set(gap[rest & live].tolist()), set(gap[~rest & live].tolist())
    if not shown or not hidden:
        return None
    low, high = min(shown), max(shown)
    if any(low <= g <= high for g in hidden):
        return None
    return (high if max(hidden) > high else None), (-low if min(hidden) < low else None)


def _band_pattern(size_q: int, size_k: int, offset: int, ahead: int | None, back: int | None) -> torch.Tensor:
    gap = torch.arange(size_k)[None, :] - torch.arange(size_q)[:, None] - offset
    hidden = torch.zeros(size_q, size_k, dtype=torch.bool)
    if ahead is not None:
        hidden |= gap > ahead
    if back is not None:
        hidden |= gap < -back
    return hidden


def _band_words(ahead: int | None, back: int | None) -> str:
    """Words for a band that shows `ahead` keys after the diagonal and `back` keys before it."""
    if back is None:
        return {0: "causal", -1: "causal, diagonal hidden"}.get(ahead, f"causal, shifted {ahead:+d}")
    if ahead is None:
        return "hides past keys" if back == 0 else f"shows keys from {-back:+d} on"
    if ahead == 0:
        return f"causal window of {back + 1} keys"
    return f"window ±{ahead}" if ahead == back else f"window {-back:+d}…{ahead:+d}"
