"""The facts a witness needs, read once from the stages before it: inputs, padding, causal sequences.

Witnesses do not reach into the checks: what they need of the analysis is gathered here, as
plain data keyed by each input's position among the forward pass's tensors (the order
`tensors_in((args, kwargs))` walks them, which is the order the recorder saw them).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import torch

from ..blocks import AttentionBlock, attended_pairs
from ..evidence.masks import alike_rows, masks_before, pattern_of, undirected
from ..evidence.padding import image_pad_reading, source_behind
from ..evidence.sources import ADDITIVE_HIDING, data_inputs, is_mask_like
from .documents import Documents, find_documents

LOCKSTEP_ROWS = 2  # rows whose bound moves on by one key, in a mask that follows the query
GUESSED = "runs of token 0"  # padding read from the ids alone (evidence.padding's weakest reading)


@dataclass
class DataInput:
    name: str
    vid: int
    batch: int | None  # the dim holding the samples
    seq: int | None  # the dim holding the positions
    sequence: str | None  # the sequence id of that dim
    vocabulary: int | None  # the embedding's size, for token ids
    roots: tuple[int, ...] = ()  # the table root of each dim's axis: what else its dims are (the players of a clip)


@dataclass(frozen=True)
class ImagePadding:
    """Padded pixels of an image input, told by a (B, rows, columns) mask input."""

    position: int  # the image's position among the forward's tensors
    dims: tuple[int, int, int]  # its batch, row and column dims
    roots: tuple[int, int]  # the table roots of its row and column axes
    pad: torch.Tensor  # (B, rows, columns), True at padding
    mask: str  # the mask input's name


@dataclass
class Facts:
    names: list[str]  # per input position
    data: list[DataInput | None]
    sequence_roots: dict[str, int] = field(default_factory=dict)  # sequence id -> its axis
    padding: dict[str, tuple[torch.Tensor, bool]] = field(default_factory=dict)  # (pad, described by another input)
    causal: dict[str, int] = field(default_factory=dict)  # sequence id -> the last row of its bidirectional prefix
    unpadded_masks: list[tuple[int, str]] = field(default_factory=list)  # (mask position, its sequence)
    sample_masks: dict[int, int] = field(default_factory=dict)  # mask input position -> its batch dim
    pad_rows: dict[str, tuple[str, int]] = field(default_factory=dict)  # sequence -> (embedding weight, pad id)
    tied_rows: dict[str, str] = field(default_factory=dict)  # sequence -> which other op reads its pad row's weight
    outputs: int = 0  # how many outputs the forward returned
    compared_outputs: frozenset[int] | None = None  # outputs made from a table of samples against samples
    aligned: dict[int, frozenset[int]] = field(default_factory=dict)  # root -> roots lined up with it
    image_padding: ImagePadding | None = None
    documents: Documents | None = None
    guessed_padding: frozenset[str] = frozenset()  # sequences whose padding is only a guess (runs of token 0)

    def aligned_roots(self, sequence: str) -> frozenset[int]:
        return self.aligned.get(self.sequence_roots[sequence], frozenset())

    def padding_of(self, sequence: str | None) -> torch.Tensor | None:
        """The known padding of a sequence, or of one lined up with it (a mask built over turn ids)."""
        if sequence in self.padding:
            return self.padding[sequence][0]
        root = self.sequence_roots.get(sequence)
        lined_up = self.aligned.get(root, frozenset()) if root is not None else frozenset()
        return next((pad for other, (pad, _) in self.padding.items() if self.sequence_roots.get(other) in lined_up), None)

    def input_of_sequence(self, sequence: str) -> tuple[int, DataInput] | None:
        return next(iter(self.inputs_of_sequence(sequence)), None)

    def inputs_of_sequence(self, sequence: str) -> list[tuple[int, DataInput]]:
        """Every data input over this sequence's positions (ids and their token types, a step's codes and
        action), its own first, then those that hold them in another dim (the players of a clip's
        frames) or hold a sequence lined up with it (a gene's id and its expression); each with `seq`
        set to the dim that holds them."""
        root = self.sequence_roots.get(sequence)
        held = {root} | set(self.aligned.get(root, frozenset())) if root is not None else set()
        own = [(position, data) for position, data in enumerate(self.data)
               if data is not None and data.sequence == sequence and data.seq is not None]
        beside, mine = [], {position for position, _ in own}
        for position, data in enumerate(self.data):
            if data is None or position in mine:
                continue
            dims = [dim for dim, axis_root in enumerate(data.roots) if axis_root in held and dim != data.batch]
            if len(dims) == 1:
                beside.append((position, replace(data, seq=dims[0], sequence=sequence)))
        return own + beside


def gather(analysis, positions: list[int]) -> Facts:
    """Facts about the inputs at `positions` (vids of the forward's tensors, in order)."""
    recording, table = analysis.recording, analysis.table
    sources = recording.sources
    data_vids = {source.meta.vid for source in data_inputs(recording)}
    names = [sources[vid].name if vid in sources else f"input {i}" for i, vid in enumerate(positions)]
    facts = Facts(names, [None] * len(positions))
    vocabularies = {_vid_behind(analysis, event.inputs[0].vid): event.inputs[1].shape[0]
                    for event in recording.ops("embedding") if len(event.inputs) >= 2}
    for position, vid in enumerate(positions):
        if vid not in data_vids or vid in positions[:position]:
            continue
        roles = analysis.layout.roles.get(vid, ())
        axes = analysis.inputs.axes.get(vid, ())
        kinds = [table.get(axis).kind for axis in axes]  # what the forward made of each dim (an image's batch)
        batch = roles.index("batch") if "batch" in roles else (kinds.index("batch") if kinds.count("batch") == 1 else None)
        seq = roles.index("seq") if roles.count("seq") == 1 else (kinds.index("seq") if kinds.count("seq") == 1 and
                                                                 "seq" not in roles else None)
        sequence = table.get(axes[seq]).seq if seq is not None and seq < len(axes) else None
        if sequence is not None:
            facts.sequence_roots.setdefault(sequence, table.find(axes[seq]))
        facts.data[position] = DataInput(names[position], vid, batch, seq, sequence, vocabularies.get(vid),
                                         tuple(table.find(axis) for axis in axes))
    _padding(analysis, facts, positions)
    facts.image_padding = _image_padding(analysis, facts, positions)
    facts.documents = find_documents(analysis, facts, positions)
    facts.aligned = _aligned_sequences(analysis)
    facts.causal = (_causal_sequences(analysis, facts) or _cached_language_model(analysis, facts)
                    or _causal_by_construction(analysis, facts) or _declared_causal(analysis, facts))
    facts.unpadded_masks = _unpadded_masks(analysis, facts, positions)
    facts.outputs = len(recording.outputs)
    facts.compared_outputs = _compared_outputs(analysis)
    facts.sample_masks = _sample_masks(analysis, positions)
    return facts


def _aligned_sequences(analysis) -> dict[int, frozenset[int]]:
    """Sequences of one length that the model combines position by position and never attends one to
    the other (a decision transformer's returns, states and timesteps): one set of positions under
    several names, by table root. The axis-mismatch check reads such pairs as aligned by construction too."""
    table, apart = analysis.table, attended_pairs(analysis.table, analysis.blocks)
    groups: dict[int, set[int]] = {}
    pairs = [(conflict.first, conflict.second) for conflict in table.conflicts if conflict.reason == "sequences"]
    for first, second in pairs + _masked_pairs(analysis):
        if table.get(first).size != table.get(second).size or \
                frozenset((table.sequence_of(first), table.sequence_of(second))) in apart:
            continue
        first, second = table.base_of(first), table.base_of(second)
        joined = groups.get(table.find(first), {table.find(first)}) | groups.get(table.find(second), {table.find(second)})
        for root in joined:
            groups[root] = joined
    return {root: frozenset(group - {root}) for root, group in groups.items()}


def _masked_pairs(analysis) -> list[tuple[int, int]]:
    """(mask axis, score axis) pairs of the positions a mask was applied to, one by one, where the mask
    was built over a sequence of its own (turn ids compared with each other): the same positions."""
    table, pairs = analysis.table, []
    for block in analysis.blocks:
        for use in block.masks:
            if use.mask is None or not use.axes:
                continue
            for mask_axis, size, score_axis in zip(reversed(analysis.axes_of(use.mask)), reversed(use.mask.shape),
                                                   reversed(use.axes)):
                if size > 1 and table.is_positions(mask_axis) and table.is_positions(score_axis) and \
                        table.find(table.base_of(mask_axis)) != table.find(table.base_of(score_axis)):
                    pairs.append((mask_axis, score_axis))
    return pairs


def _sample_masks(analysis, positions: list[int]) -> dict[int, int]:
    """Mask inputs with one mask per sample (a padding mask, lengths): their batch dim, by position."""
    found = {}
    for position, vid in enumerate(positions):
        source = analysis.recording.sources.get(vid)
        if source is None or not _is_mask_input(analysis, vid) or vid in positions[:position]:
            continue
        kinds = [analysis.table.get(axis).kind for axis in analysis.axes_of(source.meta)]
        if kinds.count("batch") == 1:
            found[position] = kinds.index("batch")
    return found


def _padding(analysis, facts: Facts, positions: list[int]) -> None:
    masks = [analysis.recording.values.get(vid) for vid in positions if _is_mask_input(analysis, vid)]
    for sequence, padding in analysis.padding.items():
        told = padding.told
        described = told.startswith(("the mask input", "the lengths", "the negative ids")) or any(
            mask is not None and describes(mask, padding.pad) for mask in masks)
        facts.padding[sequence] = (padding.pad, described)
        if told.startswith(GUESSED):
            facts.guessed_padding |= {sequence}
        row = _pad_row(analysis, positions, padding.pad)
        if isinstance(row, str):
            facts.tied_rows[sequence] = row
        elif row is not None:
            facts.pad_rows[sequence] = row


def _image_padding(analysis, facts: Facts, positions: list[int]) -> ImagePadding | None:
    """An image input (batch, ..., rows, columns, ...) and a mask input (batch, rows, columns) whose
    one value fills only some last rows and columns of each image (DETR's `mask`, an image
    processor's `pixel_mask`, whichever its polarity)."""
    values = analysis.recording.values
    for mask_position, vid in enumerate(positions):
        value = values.get(vid)
        if value is None or value.dim() != 3 or not _is_mask_input(analysis, vid):
            continue
        pad = image_pad_reading(value)
        if pad is None:
            continue
        for position, data in enumerate(facts.data):
            if data is None or data.batch is None:
                continue
            shape = analysis.recording.sources[data.vid].meta.shape
            axes = analysis.inputs.axes.get(data.vid, ())
            rows = [d for d in range(len(shape) - 1) if d != data.batch and d + 1 != data.batch
                    and (shape[d], shape[d + 1]) == tuple(value.shape[1:])]
            if shape[data.batch] != value.shape[0] or len(rows) != 1 or len(axes) != len(shape):
                continue
            row = rows[0]
            table = analysis.table
            return ImagePadding(position, (data.batch, row, row + 1),
                                (table.find(axes[row]), table.find(axes[row + 1])), pad, facts.names[mask_position])
    return None


def _pad_row(analysis, positions: list[int], pad: torch.Tensor) -> tuple[str, int] | str | None:
    """The embedding weight and the row every padded position reads (`padding_idx`), where the ids
    embedded are an input (or a view or slice of one: OpenNMT's (B, T, 1) ids) whose padded
    positions all hold that id. A weight some other op reads too (an output projection tied to the
    embedding) gives instead which op that is: its row is more than what the padded positions hold."""
    recording = analysis.recording
    for event in recording.ops("embedding"):
        pad_id = event.arg(2, "padding_idx")
        if not isinstance(pad_id, int) or len(event.inputs) < 2:
            continue
        source = source_behind(analysis, event.inputs[0].vid)
        if source is None or source.meta.vid not in positions:
            continue
        weight = recording.sources.get(event.inputs[1].vid)
        ids = recording.values.get(event.inputs[0].vid)
        if weight is None or weight.kind != "param" or ids is None or ids.shape != pad.shape:
            continue
        pad_id %= event.inputs[1].shape[0]
        if bool((ids[pad] == pad_id).all()):
            rows = event.inputs[1].shape[0]
            reader = next((user for user, _ in analysis.flow.users(weight.meta.vid)
                           if user.op != "embedding" and _reads_row(user, pad_id, rows)), None)
            if reader is not None:
                return f"the pad id {pad_id}'s row of {weight.name} is also read by the {reader.op} at line {reader.line}"
            return weight.name, pad_id
    return None


def _reads_row(event, row: int, rows: int) -> bool:
    """Whether an op on an embedding weight may read row `row`: a plain index or slice of the rows
    says which it reads (`weight[cls_id]`, the <cls> row); any other op may read them all."""
    if event.op != "getitem" or len(event.args) < 2:
        return True
    index = event.args[1]
    first = index[0] if isinstance(index, list) and index else index
    if isinstance(first, int) and not isinstance(first, bool):
        return first % rows == row
    if isinstance(first, dict) and "slice" in first and all(bound is None or isinstance(bound, int)
                                                            for bound in first["slice"]):
        return row in range(rows)[slice(*first["slice"])]
    return True


def describes(mask: torch.Tensor, pad: torch.Tensor) -> bool:
    """Whether an input (a 0/1, boolean or additive mask) marks exactly the padded positions `pad`."""
    squeezed = mask
    while squeezed.dim() > 2 and 1 in squeezed.shape[1:-1]:
        squeezed = squeezed.squeeze(next(d for d in range(1, squeezed.dim() - 1) if squeezed.shape[d] == 1))
    if squeezed.shape != pad.shape:
        return False
    if squeezed.is_floating_point() and bool((squeezed < ADDITIVE_HIDING).any()):
        marked = squeezed < ADDITIVE_HIDING
    else:
        marked = squeezed == 0
    return bool((marked == pad).all()) or bool((marked == ~pad).all())


def _is_mask_input(analysis, vid: int) -> bool:
    source = analysis.recording.sources.get(vid)
    return source is not None and source.kind == "input" and is_mask_like(source, analysis.recording.values.get(vid))


def _causal_sequences(analysis, facts: Facts) -> dict[str, int]:
    """Sequences some attention reads causally (a mask that follows the query, or `is_causal`), each
    with the last row of its bidirectional prefix (0 when it has none): a cut before it is no test."""

    found: dict[str, int] = {}
    for block in analysis.blocks:
        sequence = _query_sequence(analysis, block, facts)
        if sequence is None or sequence in found:
            continue
        if any(use.kind == "is_causal" for use in block.masks):
            found[sequence] = 0
            continue
        steps = _steps(analysis, block, facts.sequence_roots[sequence])
        for use in masks_before(block):
            pattern = pattern_of(analysis, block, use)
            if pattern is None or pattern.hidden.shape[-2] < 2:
                continue
            ordered = _built_from_a_triangle(analysis, use.mask.vid) if use.mask is not None else False
            visible = ~pattern.hidden if steps is None else _per_step(~pattern.hidden, *steps)
            prefix = _staircase_prefix(visible, None if ordered or steps else facts.padding_of(pattern.key_seq),
                                       per_step=steps is not None)
            if prefix is not None:
                found[sequence] = prefix
                break
    return found


def _steps(analysis, block: AttentionBlock, root: int) -> tuple[torch.Tensor, torch.Tensor] | None:
    """The positions of the sequence each query and each key holds, where the block attends over
    several tokens per position (the codes and action of every step, flattened): None otherwise."""
    from .regions import Region, positions_of

    if block.query_axis is None or block.key_axis is None:
        return None
    region = Region("causal", root)
    queries, keys = (positions_of(analysis.table, axis, region) for axis in (block.query_axis, block.key_axis))
    if queries is None or keys is None or (queries.unique().numel() == queries.numel()
                                           and keys.unique().numel() == keys.numel()):
        return None
    return queries, keys


def _per_step(visible: torch.Tensor, queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    """A token-level view of the keys collapsed to the sequence's positions: step i sees step j when
    some token of i sees some token of j (a block-causal mask becomes a causal one)."""
    size = int(max(queries.max(), keys.max())) + 1
    rows = torch.nn.functional.one_hot(queries.clamp(min=0), size).float() * (queries >= 0).float()[:, None]
    columns = torch.nn.functional.one_hot(keys.clamp(min=0), size).float() * (keys >= 0).float()[:, None]
    if visible.shape[-2:] != (rows.shape[0], columns.shape[0]):
        return visible
    return (rows.T @ visible.float() @ columns) > 0


def _built_from_a_triangle(analysis, vid: int) -> bool:
    """Whether a mask was made from a `tril` or `triu`: an order its author meant, which its padded
    positions still show where the rest of the mask hides it (`tril | real_keys`)."""
    flow = analysis.flow
    return any((made := flow.made_by(ancestor)) is not None and made.op in ("tril", "triu")
               for ancestor in flow.ancestors(vid, limit=200))


def _cached_language_model(analysis, facts: Facts) -> dict[str, int]:
    """A model that writes a KV cache in place and predicts its own tokens at every position decodes
    autoregressively: its token sequence is causal even where no mask says so (chunked prefill)."""
    recording = analysis.recording
    writes_cache = any(event.inplace and event.inputs and
                       getattr(source_behind(analysis, event.inputs[0].vid), "kind", None) == "buffer"
                       for event in recording.events)
    sequence = _own_token_sequence(analysis, facts) if writes_cache else None
    return {sequence: 0} if sequence is not None else {}


def _causal_by_construction(analysis, facts: Facts) -> dict[str, int]:
    """A model that predicts its own tokens and mixes their positions by a running sum over them
    (linear attention's `cumsum`) or a scan that reads them one by one, first to last (an SSM's
    recurrence), is built to be causal even without a mask: its tokens are witnessed as causal.
    A scan that also runs last to first (a bidirectional one) is no such evidence."""
    sequence = _own_token_sequence(analysis, facts)
    if sequence is None:
        return {}
    scans = _scans(analysis)
    built = (_runs_a_sum(analysis) or "forward" in scans or _causal_convolution(analysis)) and "backward" not in scans
    return {sequence: 0} if built else {}


CAUSAL_DECLARED = ("ForCausalLM", "LMHeadModel")  # transformers' classes that predict each next token


def _declared_causal(analysis, facts: Facts) -> dict[str, int]:
    """A model an installed library declares causal by its class (transformers' `...ForCausalLM`,
    `GPT2LMHeadModel`) that predicts its own tokens: causal whatever mask it was handed (a 4-D mask
    given by the user replaces the library's causal one)."""
    declared = any(call.type_name.endswith(CAUSAL_DECLARED) for call in analysis.recording.module_calls)
    sequence = _own_token_sequence(analysis, facts) if declared else None
    return {sequence: 0} if sequence is not None else {}


def _own_token_sequence(analysis, facts: Facts) -> str | None:
    """The token sequence of a model with a vocabulary score at every one of its positions."""
    recording = analysis.recording
    for data in facts.data:
        if data is None or data.sequence is None or data.seq is None or not data.vocabulary:
            continue
        size = recording.sources[data.vid].meta.shape[data.seq]
        if size > 1 and any(len(out.shape) >= 2 and out.shape[-1] == data.vocabulary and size in out.shape[:-1]
                            for out in recording.outputs):
            return data.sequence
    return None


def _along_positions(analysis, axis: int) -> bool:
    """Whether an axis runs over the positions of a sequence (any: a convolution's output too)."""
    return analysis.table.get(axis).kind == "seq"


def _runs_a_sum(analysis) -> bool:
    """Whether some floating-point `cumsum` runs along a sequence (a count over a mask is not one)."""
    for event in analysis.recording.ops("cumsum"):
        if not event.inputs or "float" not in event.outputs[0].dtype:
            continue
        axes = analysis.axes_of(event.inputs[0])
        dim = event.arg(1, "dim")
        if isinstance(dim, int) and -len(axes) <= dim < len(axes) and _along_positions(analysis, axes[dim]):
            return True
    return False


def _causal_convolution(analysis) -> bool:
    """Whether some 1-d convolution along the positions is made causal: padded by kernel - 1 on both
    sides and cut back to its first positions (`conv(x)[..., :T]`, Mamba's and Hyena's short conv)."""
    for event in analysis.recording.ops("conv1d"):
        if len(event.inputs) < 2 or not event.outputs:
            continue
        kernel, padding = event.inputs[1].shape[-1], event.arg(4, "padding")
        padding = padding[0] if isinstance(padding, (list, tuple)) and padding else padding
        size_t = event.inputs[0].shape[-1]
        if kernel < 2 or padding != kernel - 1 or not _along_positions(analysis, analysis.axes_of(event.inputs[0])[-1]):
            continue
        for user, _ in analysis.flow.users(event.outputs[0].vid):
            if user.op in ("getitem", "narrow") and user.outputs and user.outputs[0].shape[-1] == size_t and \
                    _keeps_first(user):
                return True
    return False


def _keeps_first(event) -> bool:
    """A slice of the last dim that starts at 0 (`y[..., :T]`, `y.narrow(-1, 0, T)`)."""
    if event.op == "narrow":
        return event.arg(2, "start") == 0
    index = event.args[1] if len(event.args) > 1 else None
    last = index[-1] if isinstance(index, list) and index else index
    return isinstance(last, dict) and "slice" in last and (last["slice"][0] in (None, 0))


def _scans(analysis) -> set[str]:
    """The directions in which some value is read one position at a time (`x[:, t]` for every t)."""
    order: dict[tuple[int, int], list[int]] = {}
    for event in analysis.recording.ops("getitem", "select"):
        if not event.inputs:
            continue
        axes = analysis.axes_of(event.inputs[0])
        picked = _picked_position(event, len(axes))
        if picked is not None and _along_positions(analysis, axes[picked[0]]):
            order.setdefault((event.inputs[0].vid, picked[0]), []).append(picked[1])
    found = set()
    for seen in order.values():
        if len(seen) < 2 or len(set(seen)) != len(seen):
            continue
        if seen == sorted(seen):
            found.add("forward")
        elif seen == sorted(seen, reverse=True):
            found.add("backward")
    return found


def _picked_position(event, rank: int) -> tuple[int, int] | None:
    """(dim, index) of an event that takes one whole position of a value: `x[:, t]`, `x.select(1, t)`."""
    if event.op == "select":
        dim, index = event.arg(1, "dim"), event.arg(2, "index")
        return (dim % rank, index) if isinstance(dim, int) and isinstance(index, int) else None
    index = event.args[1] if len(event.args) > 1 else None
    index = index if isinstance(index, list) else [index]
    ints = [(dim, item) for dim, item in enumerate(index) if isinstance(item, int) and not isinstance(item, bool)]
    if len(ints) != 1 or any(item is None or item == "..." or (isinstance(item, dict) and "slice" not in item)
                             for item in index):
        return None
    dim, item = ints[0]
    return (dim, item) if item >= 0 else None


def _vid_behind(analysis, vid: int) -> int:
    """The source a value was sliced or viewed from (ids cut into chunks), or the value itself."""
    source = source_behind(analysis, vid)
    return vid if source is None else source.meta.vid


def _query_sequence(analysis, block: AttentionBlock, facts: Facts) -> str | None:
    """The input sequence whose positions a block's queries hold: the input's own, or one cut from it
    or joined from it (a chunk of the tokens, a token shifted in front)."""
    from .regions import Region, positions_of

    if block.query_axis is None:
        return None
    for sequence, root in facts.sequence_roots.items():
        found = positions_of(analysis.table, block.query_axis, Region("causal", root))
        if found is not None and bool((found >= 0).any()):
            return sequence
    return None


def _staircase_prefix(visible: torch.Tensor, pad: torch.Tensor | None = None, per_step: bool = False) -> int | None:
    """For a mask whose view of the keys moves with the query (a causal mask, a cache mask, a
    window: not a symmetric one) after a prefix of alike rows (a prefix LM's, whatever they see),
    the last row of that prefix, the longest over the samples (0 when it has none); None for any
    other mask. `per_step`: a view collapsed to a few steps, where a step every other one sees is
    no global key but the past, so only a symmetric table has no direction."""

    prefixes = []
    tables = visible.reshape(-1, *visible.shape[-2:])
    per_sample = max(tables.shape[0] // visible.shape[0], 1) if visible.dim() > 2 else 1
    for index, table in enumerate(tables):
        seen = table.any(-1)
        if int(seen.sum()) < 2:
            continue
        size_k = table.shape[-1]
        last = (size_k - 1) - table.flip(-1).to(torch.uint8).argmax(-1)
        first = table.to(torch.uint8).argmax(-1)
        leading = alike_rows(table)  # the prefix's rows
        pairs = seen[1:] & seen[:-1]
        pairs[:leading] = False  # the staircase is read after the prefix, whatever its rows see
        needed = 1 if per_step else min(LOCKSTEP_ROWS, int(pairs.sum()))  # a few steps move on one at a time
        follows = [bool((bound[1:] >= bound[:-1])[pairs].all()) and
                   int(((bound[1:] == bound[:-1] + 1) & pairs).sum()) >= max(needed, 1)
                   for bound in (last, first)]
        square = table.shape[-1] == table.shape[-2]
        real = seen & table.any(0) if square else seen  # padding: keys nobody reads, and their own rows
        if square and pad is not None and tuple(pad.shape) == (visible.shape[0], size_k):
            real = real & ~pad[index // per_sample]  # known padding orders nothing (a padded query kept on its diagonal)
        symmetric = bool((table == table.T).all()) if per_step and square else square and undirected(table, real)
        if not any(follows) or symmetric:
            continue
        prefixes.append(max(leading - 1, 0))
    return max(prefixes) if prefixes else None


def _unpadded_masks(analysis, facts: Facts, positions: list[int]) -> list[tuple[int, str]]:
    """Mask inputs that reach an attention's mask and pad nothing on these inputs, with the
    sequence they describe (matched by the samples and positions they have)."""
    reaching = _mask_ancestors(analysis)
    found = []
    for position, vid in enumerate(positions):
        value = analysis.recording.values.get(vid)
        if vid not in reaching or value is None or value.dim() < 2 or not _is_mask_input(analysis, vid):
            continue
        if not bool((value == value.flatten()[0]).all()):
            continue
        size_b, size_t = value.shape[0], value.shape[-1]
        matches = [data.sequence for data in facts.data if data is not None and data.seq is not None
                   and data.sequence is not None and data.batch is not None
                   and analysis.recording.sources[data.vid].meta.shape[data.seq] == size_t
                   and analysis.recording.sources[data.vid].meta.shape[data.batch] == size_b]
        if len(set(matches)) == 1:
            found.append((position, matches[0]))
    return found


def _mask_ancestors(analysis) -> set[int]:
    """Every value some mask applied to attention scores was computed from."""
    masks = [use.mask.vid for block in analysis.blocks for use in block.masks if use.mask is not None]
    return set(analysis.flow.ancestors(*masks))


def _compared_outputs(analysis) -> frozenset[int] | None:
    """The positions of the outputs computed from a table of samples against samples (CLIP's logits,
    a loss over them), which couple samples by design; None when the model makes no such table.
    The other outputs (each sample's own embedding) must still depend on their own sample only."""
    table, flow, recording = analysis.table, analysis.flow, analysis.recording
    tables = []
    for event in recording.events:
        for meta in event.outputs:
            batch = [a for a, size in zip(analysis.axes_of(meta), meta.shape)
                     if size > 1 and table.get(a).kind == "batch" and not table.get(a).parts
                     and table.get(a).base is None]  # not two factors of one batch
            if len(batch) >= 2:
                tables.append(meta.vid)
    if not tables:
        return None
    downstream, frontier = set(tables), list(tables)
    while frontier:
        for user, _ in flow.users(frontier.pop()):
            for made in user.outputs:
                if made.vid not in downstream:
                    downstream.add(made.vid)
                    frontier.append(made.vid)
    return frozenset(position for position, meta in enumerate(recording.outputs) if meta.vid in downstream)
