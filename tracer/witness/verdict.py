"""From a violated witness to a finding: confirm the rule that saw it, or report it in its own right.

The op where the change got in (see `localize`) decides where and what: a rule finding of the
same harm at that op, or at an op the change passed through unseen, is confirmed (it gains
the witness as its proof); otherwise an attention block on the way is where it got in (at
its mask, or its softmax when it has none) and a finding is made there, under the code the
harm has in CONTRACT.md.
"""

from __future__ import annotations

from dataclasses import replace

from torch import nn

from ..blocks import LAYOUT_OPS, AttentionBlock, MaskUse
from ..findings import Finding, Related, Witness
from ..evidence.masks import lines_reading_ahead
from ..evidence.padding import source_behind
from .localize import VIEW_DEPTH, Localized, from_mask

# The codes whose claimed harm each witness observes.
HARMS: dict[str, tuple[str, ...]] = {
    "causal": ("causal-leak", "causal-diagonal"),
    "padding": ("mask-polarity", "mask-axis", "padding-leak", "fully-masked-row"),
    "documents": ("batch-leak", "mask-axis", "mask-polarity"),
    "alone-padding": ("padding-leak", "mask-polarity", "mask-axis", "positional-axis"),
    "alone-documents": ("batch-leak", "mask-axis", "positional-axis"),
    "batch": ("batch-leak", "softmax-axis", "layernorm-axis", "head-split", "head-merge", "mask-axis",
              "positional-axis", "axis-mismatch"),
    "repeat": ("dropout-eval", "nondeterministic"),
}
# Ops that mix positions or samples: where a change enters values the axes cannot place, one of these made it.
MIXING = frozenset({
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "cumsum", "cumprod", "roll", "pad", "avg_pool1d", "max_pool1d",
    "interpolate", "fft_fft", "fft_rfft", "sum", "mean", "topk", "sort", "argsort", "kthvalue", "scatter", "index_put",
    "einsum", "matmul", "bmm", "mm",  # a product over the positions (Linformer's projection of the sequence)
})
STRICT = ("repeat",)  # randomness has no other cause: only these codes explain it, whatever sits on the line
OWN_CODE = {"causal": "causal-leak", "padding": "padding-leak", "batch": "batch-leak", "documents": "batch-leak",
            "repeat": "nondeterministic", "alone-padding": "padding-leak",
            "alone-documents": "batch-leak"}  # a packed document is a sample of its own
MESSAGES = {
    "causal": "outputs at or before a position move when only later tokens change: {where}",
    "padding": "outputs at real positions (or pooled over them) move when only the content of padded positions "
               "changes: {where}",
    "batch": "one sample's outputs move when only another sample's inputs change: {where}",
    "documents": "one packed document's values move when only another document's content changes: {where}",
    "alone-padding": "a sample's outputs at its real positions differ from those of the sample run alone without its "
                     "padding: {where}",
    "alone-documents": "a packed document's outputs differ from those of the document run alone: {where}",
    "repeat": "two eval-mode passes on the same inputs give different outputs: {where}",
}
MASK_WHERE = {
    "causal": "this mask lets a query read keys after it",
    "padding": "this mask does not hide the padded keys from the real queries",
    "batch": "this mask mixes the samples",
    "documents": "this mask does not keep the packed documents apart",
    "alone-padding": "this mask lets the padding reach the sample's real positions",
    "alone-documents": "this mask does not keep the packed documents apart",
    "repeat": "this mask differs between passes",
}


def confirm_or_report(analysis, kind: str, witness: Witness, localized: Localized | None,
                      findings: list[Finding], aligned: bool) -> list[Finding]:
    """`findings` with the witness attached to the rule finding it confirms, or with a new finding.

    A rule finding confirms the harm when it sits on the line where the change got in, on a line
    the change passed unseen, or on a line of the attention block it passed: one mistake is one
    error, whatever the witness saw of its consequences (randomness only by a code that means it). Where the witness cannot say where the
    change got in, a rule finding of the same harm is taken."""
    if localized is not None:
        places = _places(analysis, localized)
        matches = [p for p, finding in enumerate(findings) if finding.severity != "info"
                   and (finding.file, finding.line) in places
                   and (kind not in STRICT or finding.code in HARMS[kind])]
    else:
        matches = [p for p, finding in enumerate(findings) if finding.code in HARMS[kind]]
    if not matches:
        own = _own_finding(analysis, kind, witness, localized, aligned)
        return [*findings, replace(own, witness=_with_path(witness, localized, own.event, aligned))]
    position = min(matches, key=lambda p: (findings[p].severity != "error", places.get(
        (findings[p].file, findings[p].line), 0) if localized is not None else 0, p))
    confirmed = list(findings)
    if confirmed[position].witness is None:
        finding = confirmed[position]
        confirmed[position] = replace(finding, witness=_with_path(witness, localized, finding.event, aligned))
    return confirmed


def _with_path(witness: Witness, localized: Localized | None, start: int | None, aligned: bool) -> Witness:
    """The witness with its divergence path: from the finding's op, through the ops the change passed
    unseen after it, to every op whose protected values moved."""
    if localized is None or not aligned:
        return witness
    first = start if start is not None else localized.event
    passed = sorted(index for index in localized.through if index > first)
    return replace(witness, path=tuple(dict.fromkeys([first, *passed, localized.event, *localized.path])))


def _places(analysis, localized: Localized) -> dict[tuple[str, int], int]:
    """(file, line) of every op where the change may have got in, with its rank (nearest first)."""
    events = analysis.recording.events
    indices = [localized.event, *localized.through]
    block = _block_through(analysis, indices)
    if block is not None:
        indices += [index for index in _span(block, after=True)]
    if localized.mask_event is not None:
        indices.insert(0, localized.mask_event)
    places: dict[tuple[str, int], int] = {}
    for index in indices:
        places.setdefault((events[index].file, events[index].line), len(places))
    return places


def _own_finding(analysis, kind: str, witness: Witness, localized: Localized | None, aligned: bool) -> Finding:
    from ..evidence.provenance import construction, enclosing_function, library_call

    if localized is None:
        return Finding(OWN_CODE[kind], "error", MESSAGES[kind].format(where="the op where it happens could not be "
                       "told (the two runs did not run the same ops)"), "", 0, "", "", "", witness=witness)
    events = analysis.recording.events
    index, where = _culprit(analysis, kind, localized) if kind not in STRICT else (None, "")
    if kind not in STRICT and (torn := _tearing_reshape(analysis, localized)) is not None:
        index, where = torn, (f"this {events[torn].op} to {list(events[torn].outputs[0].shape)} tears an axis "
                              f"apart: its pieces hold parts of {TORN[kind]}")
    code, related, hint = OWN_CODE[kind], (), ""
    if localized.mask_event is not None:
        index = localized.mask_event
        pooling = events[localized.event].op
        code = "mask-polarity" if localized.hides_real else code
        where = (f"this mask hides the real positions and keeps the padded ones, which the {pooling} then reads"
                 if localized.hides_real else f"this mask leaves padded positions in what the {pooling} reads")
        masks = [meta for meta in events[index].inputs if from_mask(analysis, meta.vid)]
        related = construction(analysis, masks[0].vid, "mask built here", index) if masks else ()
    elif index is None and (mixer := _untracked_mixer(analysis, localized)) is not None:
        index, reached = mixer, events[localized.event]
        mixed = "samples" if kind == "batch" else "positions"
        where = (f"the change gets in at this {events[index].op}, which mixes {mixed} into values whose axes "
                 f"attnscope cannot place, and first shows at the {reached.op} on line {reached.line}")
    elif index is None and kind.startswith("alone") and makes_positions(analysis, localized.event):
        index, code = localized.event, "positional-axis"
        where = ("these positions are counted along the whole row, not from the sample's own first position: "
                 "they depend on the padding (or the documents) in front of it")
        related = library_call(analysis, index)
        hint = ("number each sample's positions from its own first token (left padding: "
                "position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0); packed documents: restart at each one)")
    elif index is None and kind == "padding" and (hiding := _masked_after(analysis, localized.event)) is not None:
        index, code = hiding, "mask-after-softmax"
        where = (f"the padding is hidden only after the {events[localized.event].op} has normalized over it: "
                 "the real weights still share their sum with the padded scores")
    elif index is None:
        index = localized.event
        here = (events[index].file, events[index].line)
        same_line = [i for i in localized.through if (events[i].file, events[i].line) == here]
        index = same_line[-1] if same_line else index  # the earliest op of the line: `mean` in `y - y.mean(0)`
        where = f"the change first gets there at this {events[index].op}"
    elif (found := mask_use_at(analysis, index)) is not None and found[1].mask is not None:
        prefer = lines_reading_ahead(analysis, found[1].mask.vid) if kind == "causal" else frozenset()
        related = construction(analysis, found[1].mask.vid, "mask built here", index, prefer=prefer)
    event = events[index]
    if not related and event.module:  # an op of a library module (nn.BatchNorm1d): its arguments may be the mistake
        related = _library_module_made(analysis, event.module)
    place = (event.file, event.line)
    if kind == "batch" and related and _batch_statistics_in_eval(event):
        place = (related[0].file, related[0].line)  # the cause is how it was made, not where it was called
        related = (Related(event.file, event.line, enclosing_function(event.file, event.line), "called here"),)
        where = (f"this {analysis.module_types().get(event.module, 'norm')} keeps no running statistics, so in eval mode it "
                 "normalizes every sample with statistics of the whole batch")
        hint = "keep running statistics (track_running_stats=True, the default), or normalize per sample (GroupNorm, LayerNorm)"
    return Finding(
        code, "error", MESSAGES[kind].format(where=where), place[0], place[1], event.module, event.op,
        analysis.node_ids[index] if aligned else "", hint=hint, event=index if aligned else None, related=related,
        witness=witness,
    )


def _batch_statistics_in_eval(event) -> bool:
    """A `batch_norm` run without running statistics (a BatchNorm made with `track_running_stats=False`):
    in eval mode it still takes its mean and variance over the batch."""
    return event.op == "batch_norm" and event.arg(1, "running_mean") is None


def _library_module_made(analysis, path: str) -> tuple:
    """Where a module of torch's own (`self.bn = nn.BatchNorm1d(d, track_running_stats=False)`) was made,
    when the op ran inside it: the arguments given there decide what it computes."""
    from ..evidence.provenance import module_definition

    type_name = analysis.module_types().get(path, "")
    module = getattr(nn, type_name, None)
    if not isinstance(module, type):
        return ()
    return module_definition(analysis, path, f"the {type_name} made here (with the arguments it runs with)")


ROW_PICKS = {"index_select": (1, 2), "gather": (1, 2), "take_along_dim": (2, 1)}  # op -> (dim, index) positions


def rows_picked_by_caller(analysis, index: int) -> str | None:
    """The input whose indices choose the batch rows op `index` reads (a beam search's
    `cache.index_select(0, beam_idx)` with `beam_idx` given to the forward), or None. Samples
    exchanging state there do so where the caller said: no leak the model makes."""
    event = analysis.recording.events[index]
    positions = ROW_PICKS.get(event.op)
    if positions is None or not event.inputs:
        return None
    dim, picks = event.arg(positions[0], "dim"), event.tensor_arg(positions[1], "index")
    axes = analysis.axes_of(event.inputs[0])
    if not isinstance(dim, int) or picks is None or not -len(axes) <= dim < len(axes) or \
            analysis.table.get(axes[dim]).kind != "batch":
        return None
    source = source_behind(analysis, picks.vid)
    return source.name if source is not None and source.kind == "input" else None


def makes_positions(analysis, index: int) -> bool:
    """An op that makes position indices or a position table (`arange`, an embedding of positions)."""
    event, table = analysis.recording.events[index], analysis.table
    return event.op == "arange" or any(table.get(axis).kind == "pos"
                                       for meta in event.outputs for axis in analysis.axes_of(meta))


NORMALIZING = frozenset({"softmax", "log_softmax"})


def _masked_after(analysis, index: int) -> int | None:
    """The op that hides padding in a softmax's output (a product with a 0/1 mask, a fill with 0),
    when the softmax is where padding first reached real positions: the mask came after the
    normalization (mask-after-softmax), whether or not an attention block was recognized."""
    event = analysis.recording.events[index]
    if event.op not in NORMALIZING or not event.outputs:
        return None
    flow, vid = analysis.flow, event.outputs[0].vid
    for _ in range(VIEW_DEPTH):
        users = flow.users(vid)
        for user, position in users:
            if user.op == "mul" and len(user.inputs) == 2:
                other = flow.value(user.inputs[1 - position])
                if other is not None and bool(((other == 0) | (other == 1)).all()) and bool((other == 0).any()):
                    return user.index
            if (user.op == "masked_fill" and position == 0 and flow.scalar(user, 2, "value") == 0.0) or \
                    (user.op == "where" and position == 1 and flow.scalar(user, 2, "other") == 0.0):
                return user.index
        views = [user for user, _ in users if user.op in LAYOUT_OPS and user.outputs]
        if len(views) != 1:
            return None
        vid = views[0].outputs[0].vid
    return None


def _untracked_mixer(analysis, localized: Localized) -> int | None:
    """The op where the change entered values the axes cannot place, when that op mixes positions or
    samples (a convolution, a running sum, a reduction): the change was made there, not where it shows."""
    if not localized.through:
        return None
    start = min(localized.through)  # the ops behind the first moved one: the earliest is where it entered
    event = analysis.recording.events[start]
    return start if event.op in MIXING or _cuts_flattened_samples(analysis, event) else None


def _cuts_flattened_samples(analysis, event) -> bool:
    """A slice of a dim that flattens the samples with their positions (`h.reshape(B * T, D)[:-1]`):
    shifted along that dim, one sample's rows run into the next one's."""
    if event.op not in ("getitem", "narrow") or not event.inputs or not event.outputs:
        return False
    table = analysis.table
    return any(table.get(axis).kind == "merged" and table.holds_batch(axis) and size_in != size_out
               for axis, size_in, size_out in zip(analysis.axes_of(event.inputs[0]), event.inputs[0].shape,
                                                  event.outputs[0].shape))


def _culprit(analysis, kind: str, localized: Localized) -> tuple[int | None, str]:
    """The earliest attention block the change passed through: its last mask, else its softmax;
    none when its weights held still (the change came in with the values)."""
    block = _block_through(analysis, [localized.event, *localized.through])
    if block is None or not _weights_moved(block, localized):
        return None, ""
    if kind == "batch" and (folded := _samples_folded_into_keys(analysis, block)) is not None:
        return folded, (f"this {analysis.recording.events[folded].op} folds the samples into one sequence, and the "
                        f"attention on line {analysis.recording.events[block.norm_event].line} runs over all of it")
    uses = [use for use in block.masks if not use.after]
    if uses:
        return uses[-1].event, MASK_WHERE[kind]
    return block.norm_event, f"the attention weights of this {analysis.recording.events[block.norm_event].op} " \
                             "already hold it, and no mask is applied before it"


RESHAPES = frozenset({"view", "reshape", "flatten", "unflatten", "_unsafe_view"})
TORN = {"batch": "several samples", "padding": "real and padded positions", "causal": "earlier and later positions",
        "documents": "several documents", "alone-padding": "real and padded positions",
        "alone-documents": "several documents"}


def _tearing_reshape(analysis, localized: Localized) -> int | None:
    """The earliest reshape the change passed that tore an axis (its output holds a piece mixing two of
    its input's axes, passage-major rows read question-major): there the values were mixed."""
    table, events = analysis.table, analysis.recording.events
    for index in sorted({localized.event, *localized.through}):
        event = events[index]
        if event.op in RESHAPES and event.outputs and any(
                table.get(axis).kind == "mixed" and table.get(axis).origin == index
                for axis in analysis.axes_of(event.outputs[0])):
            return index
    return None


def _samples_folded_into_keys(analysis, block) -> int | None:
    """The op that merged the batch into the sequence a block attends over (`x.reshape(1, B * T, d)`):
    samples that read each other there were made one sequence by it."""
    if block.key_axis is None:
        return None
    table = analysis.table
    root = table.base_of(block.key_axis)
    keys = table.axes[root]
    if keys.kind != "merged" and not keys.parts or keys.origin is None:
        return None
    if not any(table.get(part).kind == "batch" for part in keys.parts):
        return None
    made = analysis.recording.events[keys.origin]
    inputs, outputs = analysis.axes_of(made.inputs[0]), analysis.axes_of(made.outputs[0]) if made.outputs else ()
    where_batch = [d for d, axis in enumerate(inputs) if table.get(axis).kind == "batch"]
    where_merged = [d for d, axis in enumerate(outputs) if table.find(axis) == table.find(root)]
    # windows folded into the batch where the batch was (MaxViT) are no fold into a sequence: whatever read
    # them as one (a sequence-first layer) is where they were mixed
    return keys.origin if where_batch and where_merged and where_batch[0] != where_merged[0] else None


def _weights_moved(block, localized: Localized) -> bool:
    """Whether some op from the block's scores to its weights moved (protected or undetermined)."""
    moved = {localized.event, *localized.through, *localized.path}
    known = [index for index in (block.product_event, block.exp_event, block.norm_event) if index is not None]
    return any(index in moved for index in range(min(known), max(known) + 1))


def _block_through(analysis, indices: list[int]):
    """The earliest attention block one of these ops belongs to, or None."""
    for block in sorted(analysis.blocks, key=lambda block: block.norm_event):
        span = _span(block, after=False)
        if any(index in span for index in indices):
            return block
    return None


def _span(block, after: bool) -> range:
    """The events of a block: from its scores to its weighted sum (`after`: and the masks after it)."""
    known = [index for index in (block.product_event, block.norm_event, block.contraction_event, block.exp_event)
             if index is not None] + [use.event for use in block.masks if after or not use.after]
    return range(min(known), max(known) + 1)


def mask_use_at(analysis, index: int) -> tuple[AttentionBlock, MaskUse] | None:
    """The attention block and the mask use of event `index`, if it applies a mask to one (the use
    with a mask tensor first: an SDPA call has its `attn_mask` and its `is_causal` at one event)."""
    found = [(block, use) for block in analysis.blocks for use in block.masks if use.event == index]
    return next((pair for pair in found if pair[1].mask is not None), found[0] if found else None)
