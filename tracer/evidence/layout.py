"""Roles from evidence: what each dim of each data input IS, settled by what the forward does.

A first analysis pass runs under the conventional hypothesis (batch first). Its result is
read for evidence, each piece a weighted `Vote` on one input dim with the event that gave
it: the axes an attention block attends over are sequences, the axes its products keep
apart are the batch, positions added along an axis make it a sequence and a position
table's broadcast singleton marks the batch, Linear and LayerNorm act on features.
`settle` picks, per input, the layout the votes support best; convention only breaks a
tie. Votes the settled layout contradicts are kept: they are the conflicting evidence
the checks report (attention over the batch, positions along the batch), never dropped.

How much a vote weighs says how much it tells about the *data*: attention the user wrote
by hand weighs 3; torch's attention modules weigh 4 when `batch_first=True` was set (a
choice the user made) and 1 under the default `batch_first=False` (which a user who never
thought about layout also gets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

import torch

from ..axes import SEQ_LIKE
from ..events import Recording
from ..rules.spatial import CONVOLUTIONS
from .sources import candidates, data_inputs

if TYPE_CHECKING:
    from ..analysis import Reading

HAND_WRITTEN = 3.0
POOLING = ("mean", "sum", "amax", "max", "logsumexp", "nanmean")  # reductions that pool positions
DECLARED = 4.0  # batch_first=True on a torch module
DEFAULT = 1.0  # batch_first=False, torch's default
POSITIONS = 2.0
FEATURES = 2.0
LONGER = 1.0  # the weakest prior: in an example batch the sequence is usually longer than the batch
HAND_WRITTEN_BATCH = 2.0
FORCED = ("batch-first", "seq-first")
POSITION_OPS = ("add", "sub", "mul")


@dataclass(frozen=True)
class Vote:
    """One piece of evidence that dim `dim` of input `vid` plays `role`."""

    vid: int
    dim: int
    role: str  # "batch", "seq" or "feature"
    weight: float
    reason: str  # what the forward did, e.g. "attention runs over it"
    event: int | None = None


@dataclass
class Layout:
    """The settled roles of every data input's dims, and the evidence behind them."""

    roles: dict[int, tuple[str, ...]] = field(default_factory=dict)  # vid -> "batch"/"seq"/"feature"/"" per dim
    attention_products: dict[int, bool] = field(default_factory=dict)  # query-key product -> keys in its rows
    votes: list[Vote] = field(default_factory=list)
    forced: str | None = None  # the user's --layout, which evidence does not override

    def contradicted(self) -> list[Vote]:
        """Votes the settled roles disagree with: conflicting evidence, for the report."""
        return [vote for vote in self.votes
                if (roles := self.roles.get(vote.vid)) and roles[vote.dim] and roles[vote.dim] != vote.role]

    @property
    def name(self) -> str:
        """"seq-first" when the first input with a batch and a sequence has its sequence first."""
        for roles in self.roles.values():
            if "batch" in roles and "seq" in roles:
                return "seq-first" if roles.index("seq") < roles.index("batch") else "batch-first"
        return "batch-first"


def prior_layout(recording: Recording, forced: str | None = None) -> Layout:
    """The conventional hypothesis (or the user's `--layout`), before any evidence is read."""
    if forced is not None and forced not in FORCED:
        raise ValueError(f"layout must be one of {', '.join(FORCED)}, not {forced!r}")
    roles = {}
    for source in data_inputs(recording):
        options = candidates(source)
        chosen = options[0] if options else ("",) * len(source.meta.shape)
        if forced == "seq-first":
            chosen = next((c for c in options if c[:2] == ("seq", "batch")), chosen)
        roles[source.meta.vid] = chosen
    return Layout(roles, forced=forced)


def settle(recording: Recording, prior: Layout, votes: list[Vote], products: dict[int, bool]) -> Layout:
    """The layout per input that the votes support best; a tie keeps the prior's choice."""
    if prior.forced is not None:
        return Layout(dict(prior.roles), products, votes, prior.forced)
    by_input: dict[int, list[Vote]] = {}
    for vote in votes:
        by_input.setdefault(vote.vid, []).append(vote)
    roles = {}
    for source in data_inputs(recording):
        vid = source.meta.vid
        mine = by_input.get(vid, [])
        options = candidates(source)
        if options:
            roles[vid] = max(options, key=lambda option: (_support(option, mine), option == prior.roles[vid]))
        else:
            roles[vid] = _per_dim(len(source.meta.shape), mine)
    return Layout(roles, products, votes)


def _support(option: tuple[str, ...], votes: list[Vote]) -> float:
    return sum(vote.weight if option[vote.dim] == vote.role else -vote.weight for vote in votes)


def _per_dim(rank: int, votes: list[Vote]) -> tuple[str, ...]:
    """Inputs of other ranks (images, per-head tensors, ids with a trailing feature dim): each dim
    takes the role its evidence supports; the batch is the one dim with most support for it."""
    seq = [0.0] * rank
    batch = [0.0] * rank
    for vote in votes:
        seq[vote.dim] += vote.weight if vote.role == "seq" else -vote.weight
        batch[vote.dim] += vote.weight if vote.role == "batch" else -vote.weight
    roles = ["seq" if value > 0 else "" for value in seq]
    best = max(range(rank), key=lambda dim: batch[dim], default=None)
    if best is not None and batch[best] > 0 and not roles[best]:
        roles[best] = "batch"
    return tuple(roles)


# ---------------------------------------------------------------------------- gathering
class VoteCollector:
    """Reads one pass of the axes stage for evidence about the data inputs' dims."""

    def __init__(self, reading: "Reading") -> None:
        self.reading, self.table = reading, reading.table
        self.dims_by_root: dict[int, list[tuple[int, int]]] = {}
        for axis, dims in reading.inputs.dims.items():
            self.dims_by_root.setdefault(self.table.find(axis), []).extend(dims)
        self.calls = {call.path: call for call in reading.recording.module_calls}
        self.seen: dict[tuple[int, int, str, str], Vote] = {}

    def dims_of(self, axis: int) -> list[tuple[int, int]]:
        """The input dims an axis stands for (a role copy stands for its sequence)."""
        return self.dims_by_root.get(self.table.find(self.table.base_of(axis)), [])

    def vote(self, axis: int, role: str, weight: float, reason: str, event: int | None) -> None:
        """One vote per dim, role and kind of evidence: a table applied to q and k, or twelve layers
        of one attention, are one piece of evidence each, not many."""
        for vid, dim in self.dims_of(axis):
            key = (vid, dim, role, reason)
            if key not in self.seen or self.seen[key].weight < weight:
                self.seen[key] = Vote(vid, dim, role, weight, reason, event)

    @property
    def votes(self) -> list[Vote]:
        return list(self.seen.values())

    def collect(self) -> list[Vote]:
        self._attention()
        self._declared()
        self._positions()
        self._features()
        self._pooling()
        self._lined_up()
        self._lengths()
        return self.votes

    def _declared(self) -> None:
        """A torch module that states its input layout (an RNN's or a transformer's `batch_first`)
        and runs no attention block itself: its input's first two dims are (B, T) or (T, B)."""
        blocks = [block.norm_event for block in self.reading.blocks]
        for call in self.reading.recording.module_calls:
            if "batch_first" not in call.attributes or not call.inputs or len(call.inputs[0].shape) != 3:
                continue
            if any(call.first_event <= event < call.end_event for event in blocks):
                continue  # its attention blocks vote already, with the same weight
            first = bool(call.attributes["batch_first"])
            weight = DECLARED if first else DEFAULT
            axes = self.reading.axes_of(call.inputs[0])
            reason = f"{call.type_name}(batch_first={first}) reads it"
            self.vote(axes[0], "batch" if first else "seq", weight, reason, call.first_event)
            self.vote(axes[1], "seq" if first else "batch", weight, reason, call.first_event)

    def _lengths(self) -> None:
        """Of an input that may be (B, T) or (T, B), the longer leading dim is likelier the sequence."""
        for source in data_inputs(self.reading.recording):
            options = candidates(source)
            shape = source.meta.shape
            if any(option[:2] == ("seq", "batch") for option in options) and shape[0] != shape[1] \
                    and min(shape[:2]) > 1:  # a (B, 1, d) decoder step says nothing by its lengths
                longer = 0 if shape[0] > shape[1] else 1
                key = (source.meta.vid, longer, "seq", "it is the longer of the first two dims")
                self.seen[key] = Vote(source.meta.vid, longer, "seq", LONGER, key[3])

    def _weights(self, module: str) -> tuple[float, float]:
        """(sequence, batch) weight of the evidence an attention block in `module` gives."""
        path = module
        while True:
            call = self.calls.get(path)
            if call is not None and "batch_first" in call.attributes:
                weight = DECLARED if call.attributes["batch_first"] else DEFAULT
                return weight, weight
            if not path:
                return HAND_WRITTEN, HAND_WRITTEN_BATCH
            path = path.rpartition(".")[0]

    def _attention(self) -> None:
        table = self.table
        for block in self.reading.blocks:
            sequence, batch = self._weights(block.module)
            ends = [axis for axis in (block.query_axis, block.key_axis) if axis is not None]
            for axis in ends:
                self.vote(axis, "seq", sequence, "an attention block runs over it", block.norm_event)
            causal = self._causal_mask(block)
            if causal is not None:  # a triangle over it orders it: positions, whatever module reads them
                for axis in ends:
                    self.vote(axis, "seq", POSITIONS, "a causal mask orders it", causal)
            for axis in block.table_axes:
                if any(table.same(axis, end) or table.base_of(axis) == table.base_of(end) for end in ends):
                    continue
                if block.query_axis is None and table.get(axis).kind in SEQ_LIKE:
                    continue  # additive attention names no query axis: another sequence's steps are its queries
                record = table.get(axis)
                for part in record.parts or (axis,):
                    self.vote(part, "batch", batch, "attention keeps it apart", block.norm_event)

    def _causal_mask(self, block) -> int | None:
        """The event of a mask that hides exactly the later keys of each query of `block` (`is_causal`,
        a `triu(ones, 1)` or `-inf` above the diagonal): evidence the query and key axes are positions."""
        table = self.table
        if block.query_axis is None or block.key_axis is None:
            return None
        for use in block.masks:
            if use.after:
                continue
            if use.kind == "is_causal":
                return use.event
            if use.hidden is None or use.hidden.dim() < 2 or len(use.axes) < 2 or \
                    not table.same(use.axes[-2], block.query_axis) or not table.same(use.axes[-1], block.key_axis):
                continue
            rows, columns = use.shape[-2], use.shape[-1]
            hidden = use.hidden.reshape(-1, *use.hidden.shape[-2:])
            if hidden.shape[-2:] != (rows, columns) or rows < 2:
                continue
            later = torch.ones(rows, columns, dtype=torch.bool).triu(1 + columns - rows)
            if bool((hidden == later).all()):
                return use.event
        return None

    def _positions(self) -> None:
        """Position tables and rotary factors added (or multiplied) along a dim mark it a sequence;
        the table's broadcast singleton, the batch."""
        reading = self.reading
        for event in reading.recording.ops(*POSITION_OPS):
            if len(event.inputs) != 2 or not event.outputs or not event.outputs[0].dtype.startswith(("float", "bfloat", "complex")):
                continue  # an integer sum is index bookkeeping (`beam + arange(B) * K`), no table added to the data
            sides = [reading.axes_of(meta) for meta in event.inputs]
            for table_side, data_side in ((0, 1), (1, 0)):
                self._table_meets_data(event, sides[table_side], event.inputs[table_side].shape, sides[data_side],
                                       event.inputs[data_side].shape)

    def _table_meets_data(self, event, table_axes: tuple[int, ...], table_shape, data_axes: tuple[int, ...],
                          data_shape) -> None:
        aligned = range(1, min(len(table_axes), len(data_axes)) + 1)
        if not any(self._is_positions(table_axes[-o]) and data_shape[-o] > 1 for o in aligned):
            return  # no positions run along the data (an arange over heads for ALiBi slopes, say)
        if any(self._is_positions(a) for a in data_axes):
            return  # positions against positions (i - j for a relative bias) say nothing about the data
        for offset in aligned:
            table_axis, data_axis = table_axes[-offset], data_axes[-offset]
            if self._is_positions(table_axis) and table_shape[-offset] > 1:
                self.vote(data_axis, "seq", POSITIONS, "positions are added along it", event.index)
            elif table_shape[-offset] == 1:
                self.vote(data_axis, "batch", POSITIONS, "a position table is broadcast over it", event.index)

    def _is_positions(self, axis: int) -> bool:
        return self.table.axes[axis].kind == "pos" or self.table.get(axis).kind == "pos"

    def _features(self) -> None:
        reading = self.reading
        for event in reading.recording.ops(*CONVOLUTIONS):  # (B, C, ...): the batch, then channels
            axes = reading.axes_of(event.inputs[0]) if event.inputs else ()
            spatial = len(event.inputs[1].shape) - 2 if len(event.inputs) > 1 else 0
            if len(axes) == spatial + 2:
                self.vote(axes[0], "batch", FEATURES, f"{event.op} keeps it apart", event.index)
                self.vote(axes[1], "feature", FEATURES, f"{event.op} acts on it", event.index)
        for event in reading.recording.ops("linear", "layer_norm", "rms_norm"):
            if not event.inputs:
                continue
            axes = reading.axes_of(event.inputs[0])
            dims = reading.facts[event.index].normalized if event.op != "linear" else (len(axes) - 1,)
            for dim in dims:
                if dim < len(axes):
                    self.vote(axes[dim], "feature", FEATURES, f"{event.op} acts on it", event.index)


    def _lined_up(self) -> None:
        """An axis an elementwise op or a join lines up with the batch is likelier the batch (`tokens[t]`
        of (T, B) ids concatenated with a (B, d) state). As weak as the length prior: it only decides
        what other evidence leaves tied, since the reading it comes from may be the wrong one."""
        table = self.table
        for conflict in table.conflicts:
            if conflict.reason != "kinds":
                continue
            for one, other in ((conflict.first, conflict.second), (conflict.second, conflict.first)):
                if table.get(one).kind == "batch" and table.get(other).kind in ("seq", "pos", "unknown"):
                    self.vote(other, "batch", LONGER, "it is lined up with the batch", conflict.event)

    def _pooling(self) -> None:
        """A dim pooled away (`h.mean(0)` before a classifier) is no batch: samples are never summed
        together. A reduction kept beside its input (`x - x.mean(0)`: a normalization) says nothing."""
        reading = self.reading
        for event in reading.recording.ops(*POOLING):
            dims = event.arg(1, "dim")
            if event.arg(2, "keepdim", False) or not event.inputs or not event.outputs or isinstance(dims, bool):
                continue
            dims = [dims] if isinstance(dims, int) else dims
            if not isinstance(dims, list) or not all(isinstance(d, int) for d in dims):
                continue
            if any(len(user.inputs) > 1 and any(m.vid == event.inputs[0].vid for m in user.inputs)
                   for user, _ in reading.flow.users(event.outputs[0].vid)):
                continue  # combined with what it was taken from: a statistic, not a pooling
            axes = reading.axes_of(event.inputs[0])
            for dim in dims:
                if -len(axes) <= dim < len(axes) and dim % len(axes) != len(axes) - 1:
                    self.vote(axes[dim], "seq", POSITIONS, "it is pooled away", event.index)


def gather_votes(reading: "Reading") -> list[Vote]:
    return VoteCollector(reading).collect()


def attention_products(reading: "Reading") -> dict[int, bool]:
    """Each block's query-key product, and whether its keys are its rows: the side the weights
    are summed over against the values is the key side, however the product was written."""
    found, table = {}, reading.table
    for block in reading.blocks:
        if block.product_event is None or block.kind == "sdpa":
            continue
        facts = reading.facts[block.product_event]
        summed = block.contracted_axes[0] if block.contracted_axes else None
        found[block.product_event] = bool(summed is not None and facts.query is not None
                                          and table.same(summed, facts.query)
                                          and not (facts.key is not None and table.same(summed, facts.key)))
    return found


def describe_votes(votes: Iterable[Vote], recording: Recording) -> str:
    """`attention runs over it (line 31); positions are added along it (line 12)` for messages."""
    parts = []
    for vote in votes:
        event = recording.events[vote.event] if vote.event is not None else None
        where = f" (line {event.line})" if event is not None and event.line else ""
        text = vote.reason + where
        if text not in parts:
            parts.append(text)
    return "; ".join(parts)
