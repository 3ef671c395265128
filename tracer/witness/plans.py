"""What each witness changes in the inputs, and what it protects, from the analysis's facts.

The facts come from the stages before: which inputs carry data and how their dims are laid
out (evidence.layout), which positions are padding (evidence.padding), which sequences are
attended causally (`facts.causal_sequences`). A witness that has nothing to change (one
sample, no padding, no causal mask) says why it did not run instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .documents import changed_document
from .facts import Facts
from .regions import Region


@dataclass
class Plan:
    """One witness: the inputs to replace (by position among the forward's tensors) and the region."""

    kind: str
    region: Region
    changed: str  # "token 5-7 of ids (every sample)", in words
    replace: dict[int, torch.Tensor] = field(default_factory=dict)
    baseline: dict[int, torch.Tensor] = field(default_factory=dict)  # replacements of both runs (self-padding)
    rows: dict[str, int] = field(default_factory=dict)  # parameter -> a row the changed run redraws (a pad embedding)
    seed_offset: int = 0  # the repeat witness: the same inputs under another random state
    unjudged: frozenset[int] = frozenset()  # positions of outputs this witness leaves alone (they couple samples)


COMPARES_SAMPLES = "the model compares samples with each other (a batch × batch table)"


@dataclass
class Skipped:
    kind: str
    why: str
    said: bool = True  # also a note of the report (else only in the summary's witnesses)


def plans(facts: Facts, inputs: list[torch.Tensor]) -> list[Plan | Skipped]:
    """Every witness this target admits, in the order they run."""
    found: list[Plan | Skipped] = [Plan("repeat", Region("repeat"), "the random state only (a second eval-mode pass)",
                                         seed_offset=1)]
    found.append(_batch(facts, inputs))
    found.extend(_padding(facts, inputs))
    if facts.documents is not None:
        found.append(_documents(facts, inputs))
    found.extend(_causal(facts, inputs))
    return found


def _batch(facts: Facts, inputs: list[torch.Tensor]) -> Plan | Skipped:
    placed = [(position, data) for position, data in enumerate(facts.data) if data is not None and data.batch is not None]
    if not placed:
        return Skipped("batch", "no data input with a batch dim")
    size = inputs[placed[0][0]].shape[placed[0][1].batch]
    if size < 2:
        return Skipped("batch", "one sample")
    compared = facts.compared_outputs
    if compared is not None and len(compared) >= facts.outputs:
        return Skipped("batch", COMPARES_SAMPLES)
    sample = 0  # the first: a sum or count accumulated over the batch (cumsum(0)) reaches every later sample
    replace = {}
    for position, data in placed:
        tensor = inputs[position]
        if tensor.shape[data.batch] != size:
            continue
        where = torch.zeros(tensor.shape, dtype=torch.bool)
        where.select(data.batch, sample).fill_(True)
        replace[position] = _changed(tensor, where, data.vocabulary, avoid=None)
    for position, batch_dim in facts.sample_masks.items():
        mask = inputs[position]
        if mask.dim() > batch_dim and mask.shape[batch_dim] == size:
            replace[position] = _other_mask(mask, batch_dim, sample)
    named = [facts.names[position] for position in replace]
    names = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    return Plan("batch", Region("batch", sizes=frozenset({size}), sample=sample), f"sample {sample} of {names}",
                replace, unjudged=compared or frozenset())


def _padding(facts: Facts, inputs: list[torch.Tensor]):
    for seq, (pad, described) in facts.padding.items():
        where = facts.input_of_sequence(seq)
        if where is None:
            continue
        position, data = where
        tensor = inputs[position]
        if not bool(pad.any()):
            continue
        if not described and seq in facts.pad_rows:
            weight, pad_id = facts.pad_rows[seq]
            also = _other_inputs_padded(facts, inputs, seq, pad, position)
            held = f"the pad id {pad_id}'s row of {weight}" + "".join(f", {facts.names[other]}" for other in also)
            yield Plan("padding", _padding_region(facts, seq, pad),
                       f"what the padded positions of {data.name} hold ({held})", also, rows={weight: pad_id})
            return
        if not described and seq in facts.tied_rows:
            yield Skipped("padding", f"padding of {data.name} is read from its own pad ids, and {facts.tied_rows[seq]} "
                                     "(tied weights): redrawing that row would move more than the padded positions")
            continue
        if not described and seq in facts.guessed_padding:  # runs of token 0, which may be tokens (a beam's row 0)
            yield Skipped("padding", f"the runs of 0 at one end of {data.name} may be padding, but nothing else says "
                                     "so (no mask, no pad id): nothing to change", said=False)
            continue
        if not described:
            yield Skipped("padding", f"padding of {data.name} is read from its own pad ids: there is no other "
                                     "content of padded positions to change")
            continue
        mask = _positions_mask(tensor, data, pad)
        if mask is None:
            continue
        avoid = _pad_value(tensor, mask)
        replace = {position: _changed(tensor, mask, data.vocabulary, avoid),
                   **_other_inputs_padded(facts, inputs, seq, pad, position)}
        names = " and ".join(facts.names[changed] for changed in replace)
        yield Plan("padding", _padding_region(facts, seq, pad), f"the padded positions of {names}", replace)
        return
    plan = _self_padding(facts, inputs) or _image_padding(facts, inputs)
    if plan is not None:
        yield plan


def _other_inputs_padded(facts: Facts, inputs: list[torch.Tensor], seq: str, pad: torch.Tensor,
                         told_by: int) -> dict[int, torch.Tensor]:
    """The other data inputs over the same positions (a gene's expression beside its id), changed at
    the padded positions too: what a padded position holds is all of them."""
    found = {}
    for other, data in facts.inputs_of_sequence(seq):
        mask = _positions_mask(inputs[other], data, pad) if other != told_by else None
        if mask is not None:
            found[other] = _changed(inputs[other], mask, data.vocabulary, _pad_value(inputs[other], mask))
    return found


def _image_padding(facts: Facts, inputs: list[torch.Tensor]) -> Plan | None:
    """Other pixels where the image mask says padding: nothing at a real pixel, and nothing pooled
    or read by queries, may move."""
    image = facts.image_padding
    if image is None:
        return None
    tensor = inputs[image.position]
    shape = [1] * tensor.dim()
    for dim in image.dims:
        shape[dim] = tensor.shape[dim]
    order = sorted(range(3), key=lambda i: image.dims[i])  # the mask's (batch, rows, columns) in the image's dim order
    cells = image.pad.permute(order).reshape(shape).expand(tensor.shape)
    region = Region("padding", pad=image.pad, grid=image.roots)
    return Plan("padding", region, f"the padded pixels of {facts.names[image.position]} (padding told by {image.mask})",
                {image.position: _changed(tensor, cells, None, None)})


def _documents(facts: Facts, inputs: list[torch.Tensor]) -> Plan | Skipped:
    """One packed document of each row changed (`changed_document`): no other document's positions may move."""
    documents = facts.documents
    data = facts.data[documents.position]
    tensor = inputs[documents.position]
    changed = changed_document(documents.ids)
    cells = _positions_mask(tensor, data, changed)
    if cells is None or data.sequence is None:
        return Skipped("documents", "the documents' positions could not be laid on the data input")
    unprotected = changed | (documents.ids < 0)
    region = Region("documents", facts.sequence_roots[data.sequence], frozenset(changed.shape), pad=unprotected,
                    aligned=facts.aligned_roots(data.sequence))
    spans = [(sample, row.nonzero().flatten()) for sample, row in enumerate(changed) if bool(row.any())]
    if not spans:
        return Skipped("documents", "no row packs two documents outside its padding")
    where = [f"{_positions(int(span[0]), int(span[-1]))} of sample {sample}" for sample, span in spans]
    if len(changed) == 1:
        where = [_positions(int(spans[0][1][0]), int(spans[0][1][-1]))]
    listed = ", ".join(where[:-1]) + " and " + where[-1] if len(where) > 1 else where[0]
    which = _which_documents(documents.ids, changed)
    return Plan("documents", region, f"{which} packed document of {data.name} ({listed}; documents told by "
                                     f"{documents.told})", {documents.position: _changed(tensor, cells, data.vocabulary, None)})


def _which_documents(ids: torch.Tensor, changed: torch.Tensor) -> str:
    """`the first`, `the second`, or `one` where rows differ: which document of its row was changed."""
    ordinals = set()
    for documents, marks in zip(ids, changed):
        if bool(marks.any()):
            present = documents[documents >= 0].unique_consecutive()
            ordinals.add(int((present == documents[marks][0]).nonzero()[0]))
    return {frozenset({0}): "the first", frozenset({1}): "the second"}.get(frozenset(ordinals), "one")


def _padding_region(facts: Facts, seq: str, pad: torch.Tensor) -> Region:
    """What the padding witness protects: the real positions of `seq` (and of sequences lined up with it)."""
    return Region("padding", facts.sequence_roots[seq], frozenset(pad.shape), pad=pad, aligned=facts.aligned_roots(seq))


def _self_padding(facts: Facts, inputs: list[torch.Tensor]) -> Plan | None:
    """A padding mask that pads nothing: pad the last positions of sample 0 so the witness can run."""
    for mask_position, seq in facts.unpadded_masks:
        where = facts.input_of_sequence(seq)
        if where is None:
            continue
        position, data = where
        tensor, mask = inputs[position], inputs[mask_position]
        size_b, size_t = tensor.shape[data.batch] if data.batch is not None else 1, tensor.shape[data.seq]
        if size_t < 2:
            continue
        padded = max(1, size_t // 4)
        pad = torch.zeros(size_b, size_t, dtype=torch.bool)
        pad[0, size_t - padded:] = True
        new_mask = _padded_mask(mask, size_t, padded)
        cells = _positions_mask(tensor, data, pad)
        if new_mask is None or cells is None:
            continue
        return Plan("padding", _padding_region(facts, seq, pad),
                    f"{_positions(size_t - padded, size_t - 1)} of sample 0 of {data.name} (padded by attnscope in "
                    f"{facts.names[mask_position]})",
                    {position: _changed(tensor, cells, data.vocabulary, None)}, {mask_position: new_mask})
    return None


def _other_mask(mask: torch.Tensor, batch_dim: int, sample: int) -> torch.Tensor:
    """The mask with one sample's row changed: nothing hidden if it hid something, else its last
    position hidden (in the mask's own convention: the value its first position does not have)."""
    new = mask.clone()
    row = new.select(batch_dim, sample)
    first = row.flatten()[0].item()
    if bool((row != first).any()):
        row.fill_(first)
    else:
        flat = row.reshape(-1) if row.is_contiguous() else None
        if flat is not None and flat.numel() > 1:
            flat[-1] = (not first) if mask.dtype == torch.bool else (1 - first if first in (0, 1) else 0)
    return new


def _padded_mask(mask: torch.Tensor, size_t: int, padded: int) -> torch.Tensor | None:
    """The mask with the last `padded` keys of sample 0 marked as padding, in its own convention."""
    if mask.shape[-1] != size_t or mask.dim() < 2:
        return None
    new = mask.clone()
    if mask.dtype == torch.bool:
        value = not bool(mask.flatten()[0])  # all True: a keep-mask; all False: True means padding
    elif bool((mask == 1).all()):
        value = 0
    else:
        return None
    new[0, ..., size_t - padded:] = value
    return new


def _causal(facts: Facts, inputs: list[torch.Tensor]):
    for seq, prefix in facts.causal.items():
        where = facts.input_of_sequence(seq)
        if where is None:
            yield Skipped("causal", "the causally attended sequence is not an input's")
            continue
        position, data = where
        tensor = inputs[position]
        size_t = tensor.shape[data.seq]
        size_b = tensor.shape[data.batch] if data.batch is not None else 1
        if prefix >= size_t - 1:
            yield Skipped("causal", "no position after the causal prefix to change")
            continue
        cuts = _cuts(prefix, size_t, size_b)
        replace = {position: _changed(tensor, _after_cuts(tensor, data, cuts), data.vocabulary, None)}
        for other, more in facts.inputs_of_sequence(seq):  # every input over these positions: the step's codes too
            if other != position and inputs[other].shape[more.seq] == size_t:
                replace[other] = _changed(inputs[other], _after_cuts(inputs[other], more, cuts), more.vocabulary, None)
        pad = facts.padding.get(seq, (None, False))[0]
        region = Region("causal", facts.sequence_roots[seq], frozenset({size_t}), pad=pad, cut=cuts,
                        aligned=facts.aligned_roots(seq))
        word = "token" if not tensor.is_floating_point() else "position"
        names = " and ".join(facts.names[changed] for changed in replace)
        yield Plan("causal", region, _after(cuts, word, names), replace)
        return


def _after_cuts(tensor: torch.Tensor, data, cuts: torch.Tensor) -> torch.Tensor:
    """True at the positions after each sample's cut, over the input's other dims too."""
    size_t = tensor.shape[data.seq]
    where_changed = torch.zeros(tensor.shape, dtype=torch.bool)
    for sample, cut in enumerate(cuts.tolist()):
        rows = where_changed.select(data.batch, sample) if data.batch is not None else where_changed
        rows.narrow(data.seq - (data.batch is not None and data.batch < data.seq), cut + 1,
                    size_t - cut - 1).fill_(True)
    return where_changed


def _cuts(prefix: int, size_t: int, size_b: int) -> torch.Tensor:
    """The last protected position of each sample: spread from the prefix's end to the next-to-last
    position, so a leak that shows only early or late in the sequence (or only inside a chunk) is
    still crossed by some sample's cut; one sample cuts in the middle."""
    last = size_t - 2
    if size_b == 1:
        return torch.tensor([max(prefix, (size_t - 1) // 2)])
    return torch.linspace(prefix, last, size_b).round().long()


def _after(cuts: torch.Tensor, word: str, name: str) -> str:
    """`tokens after position 0 of sample 0 and after 6 of sample 1 of ids`."""
    values = cuts.tolist()
    if len(set(values)) == 1:
        return f"the {word}s after position {values[0]} of {name}"
    if len(values) <= 3:
        parts = [f"after {cut} of sample {sample}" for sample, cut in enumerate(values)]
        return f"the {word}s {', '.join(parts[:-1])} and {parts[-1]} of {name}".replace(" after ", " after position ", 1)
    return f"the {word}s after positions {values[0]}-{values[-1]} of {name} (one cut per sample)"


def _positions(first: int, last: int, word: str = "position") -> str:
    """`position 5`, `tokens 4-7`."""
    return f"{word} {first}" if first == last else f"{word}s {first}-{last}"


def _positions_mask(tensor: torch.Tensor, data, pad: torch.Tensor) -> torch.Tensor | None:
    """`pad` (batch, T) spread over the data input's own dims, or None if its dims do not match."""
    size_b = tensor.shape[data.batch] if data.batch is not None else 1
    if pad.shape != (size_b, tensor.shape[data.seq]):
        return None
    dims = [data.batch, data.seq] if data.batch is not None else [data.seq]
    order = sorted(dims)
    spread = pad if data.batch is not None else pad[0]
    if data.batch is not None and data.batch > data.seq:
        spread = spread.t()
    shape = [tensor.shape[d] if d in dims else 1 for d in range(tensor.dim())]
    return spread.reshape([tensor.shape[d] for d in order]).reshape(shape).expand(tensor.shape)


def _pad_value(tensor: torch.Tensor, mask: torch.Tensor) -> int | None:
    """The id every padded position holds, if one does (new ids must differ from it)."""
    if tensor.is_floating_point():
        return None
    values = tensor[mask].unique()
    return int(values[0]) if values.numel() == 1 else None


def _changed(tensor: torch.Tensor, where: torch.Tensor, vocabulary: int | None, avoid: int | None) -> torch.Tensor:
    """A copy of `tensor` with other content where `where` is set: other ids, or other features. A
    float input that holds no negative value (amounts, times, pixels) keeps none: a value out of
    its range (the log of a negative amount) would be NaN that no correct model need survive."""
    generator = torch.Generator().manual_seed(1234)
    new = tensor.clone()
    if tensor.is_floating_point():
        scale = float(tensor.float().std()) if tensor.numel() > 1 else 1.0
        noise = torch.randn(tensor.shape, generator=generator).to(tensor.dtype) * max(scale, 1e-3)
        if tensor.numel() and bool((tensor >= 0).all()):
            noise = noise.abs()
        new[where] = tensor[where] + 1.0 + noise[where]
        return new
    top = vocabulary or int(tensor.max()) + 1
    if top < 2:
        return new
    shift = torch.randint(1, top, tensor.shape, generator=generator)
    moved = (tensor + shift) % top
    if avoid is not None:
        moved = torch.where(moved == avoid, (moved + 1) % top, moved)
        moved = torch.where(moved == tensor, (moved + 1) % top, moved)
    new[where] = moved[where].to(tensor.dtype)
    return new
