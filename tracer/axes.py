"""Axes: what each tensor dimension *is* (batch, a sequence, a feature space, heads...).

An axis is an id in a union-find table. Ops that align two dimensions unify their axes;
an axis of unknown meaning adopts the meaning of what it meets. Two axes whose meanings
contradict (two different sequences, the query and key copies of one sequence, a position
table against the batch) are not merged: the meeting is kept as a `Conflict`, which the
checks turn into findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

SEQ_LIKE = ("seq", "pos")
_setattr = object.__setattr__
# Kinds a position table may meet: a sequence, or a grid (2-D positions of a feature map).
POSITIONED = ("seq", "spatial")
# What a position table must not vary along (positional-axis): the batch, the heads, the features.
POSITIONAL_MISTAKES = ("batch", "head", "feature")
# Kinds a role copy keeps: attention over the batch, heads, features or a torn axis is a finding.
DIAGNOSTIC_KINDS = ("batch", "head", "feature", "mixed")
KIND_NAMES = {"batch": "B", "head": "H", "feature": "d", "pos": "P", "one": "1", "mixed": "?", "unknown": "_",
              "spatial": "s"}
# A sequence the model made itself (patches, latents, CLS + tokens) gets this name in score tables.
MADE_SEQUENCE = "N"
# The label of an axis a tiling made (`repeat`, `repeat_interleave`): its entries are copies of one
# value, so it carries no sample and no position of any input, whatever its size.
COPIES = "copies"
# The label of an input's own feature dim, as the inputs stage names it: data no layer has read yet.
INPUT_FEATURES = "features of input"


@dataclass(frozen=True, init=False)
class Axis:
    """The meaning of one dimension. Only the union-find root's record is authoritative.

    Frozen, but made without the generated `__init__`, which sets each of the 13 fields through
    `object.__setattr__`: the analysis makes hundreds of axes per pass, and that cost 4 µs each.
    """

    kind: str  # batch | seq | pos | spatial | feature | head | merged | mixed | one | unknown
    size: int
    name: str = ""
    seq: str | None = None  # which sequence, for seq axes
    role: str | None = None  # "query" or "key" for the two copies of a sequence in a score table
    base: int | None = None  # a role copy's sequence axis; a factor's split axis
    parts: tuple[int, ...] = ()  # merged and mixed axes: what went into them
    joined: tuple[int, ...] = ()  # a sequence concatenated from these (memory + tokens, past + new)
    cut_from: int | None = None  # a sequence sliced from this one (a chunk of the tokens) ...
    cut_start: int | None = None  # ... starting at this position of it
    also_starts: tuple[int, ...] = ()  # a cut met, element by element, by other cuts of that sequence (next-token targets)
    origin: int | None = None  # index of the event that created the axis
    label: str = ""  # where the axis comes from, for messages
    picked_from: int | None = None  # entries picked from this axis by their values (`topk`): what it carries, no more

    def __init__(self, kind: str, size: int, name: str = "", seq: str | None = None, role: str | None = None,
                 base: int | None = None, parts: tuple[int, ...] = (), joined: tuple[int, ...] = (),
                 cut_from: int | None = None, cut_start: int | None = None, origin: int | None = None,
                 label: str = "", picked_from: int | None = None) -> None:
        _setattr(self, "__dict__", {"kind": kind, "size": size, "name": name, "seq": seq, "role": role, "base": base,
                                    "parts": parts, "joined": joined, "cut_from": cut_from, "cut_start": cut_start,
                                    "origin": origin, "label": label, "picked_from": picked_from})

    def replaced(self, **changes) -> "Axis":
        """`dataclasses.replace(self, **changes)`, without its walk over the fields."""
        if not changes.keys() <= _AXIS_FIELDS:
            raise TypeError(f"Axis has no field {sorted(changes.keys() - _AXIS_FIELDS)[0]!r}")
        made = object.__new__(Axis)
        _setattr(made, "__dict__", {**self.__dict__, **changes})
        return made

    @property
    def display(self) -> str:
        if self.name:
            return self.name
        return KIND_NAMES.get(self.kind, self.kind)


_AXIS_FIELDS = frozenset(item.name for item in fields(Axis))


def _traced(record: Axis) -> bool:
    """An unnamed axis whose entries are known to be copies of one value, or picked from another axis."""
    return record.label == COPIES or record.picked_from is not None


def _respects(parts: tuple[int, ...], sizes: tuple[int, ...]) -> bool:
    """Whether a split into `sizes` keeps every boundary between the flattened `parts`."""
    def boundaries(widths: tuple[int, ...]) -> set[int]:
        total, found = 1, set()
        for width in reversed(widths):  # strides from the innermost dim outwards
            total *= width
            found.add(total)
        return found
    return boundaries(parts) <= boundaries(sizes)


@dataclass(frozen=True)
class Conflict:
    """Two aligned axes whose meanings contradict, met at one event."""

    event: int
    first: int
    second: int
    reason: str  # "sequences", "roles", "positional" or "kinds"


@dataclass
class AxisTable:
    """All axes of one recording, with unification, role copies, factors and merges."""

    axes: list[Axis] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    _parent: list[int] = field(default_factory=list)
    _memo: dict[tuple, int] = field(default_factory=dict)

    def new(self, kind: str, size: int, **attrs) -> int:
        self.axes.append(Axis(kind, size, **attrs))
        self._parent.append(len(self._parent))
        return len(self.axes) - 1

    def find(self, axis: int) -> int:
        parent = self._parent
        root = parent[axis]
        if root == axis or parent[root] == root:  # a root, or one step from it: most axes
            return root
        while parent[root] != root:
            root = parent[root]
        while parent[axis] != root:
            parent[axis], axis = root, parent[axis]
        return root

    def get(self, axis: int) -> Axis:
        parent = self._parent
        root = parent[axis]
        if root != axis and parent[root] != root:
            root = self.find(axis)
        return self.axes[root]

    def same(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)

    def specify(self, axis: int, kind: str, **attrs) -> None:
        """Give an axis of unknown meaning its meaning (does nothing to a known one)."""
        root = self.find(axis)
        if self.axes[root].kind == "unknown":
            self.axes[root] = self.axes[root].replaced(kind=kind, **attrs)

    def base_of(self, axis: int) -> int:
        record = self.get(axis)
        return self.find(record.base) if record.role and record.base is not None else self.find(axis)

    # ---------------------------------------------------------------- unification
    def unify(self, a: int, b: int, event: int, inside_flattened: bool = False) -> int:
        """Align `a` with `b` (same size); returns the axis the result carries.

        `inside_flattened`: the two are parts of flattened axes (B·H meeting B·H), where an
        arange over the heads (ALiBi slopes) is index bookkeeping, not positions.
        """
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        first, second = self.axes[ra], self.axes[rb]
        if self._copy_meets_base(ra, rb) or self._copy_meets_base(rb, ra):
            return ra  # a query/key copy meeting its own sequence: both stay as they are
        if self._pieces_meet(self.axes[self.base_of(ra)], self.axes[self.base_of(rb)], event):
            if first.kind == "unknown":  # joined from pieces of one size each: one sequence
                ra, rb = rb, ra  # keep the record that knows what it is
            self._parent[rb] = self.base_of(ra)  # not one role of it
            return ra
        if self._same_structure(first, second):  # B·H meeting B·H: each part meets its twin
            for part_a, part_b in zip(first.parts, second.parts):
                self.unify(part_a, part_b, event, inside_flattened=True)
            if first.kind == "merged" and second.kind != "merged":
                ra, rb = rb, ra  # keep the record that knows more (the batch·heads of the scores)
            self._parent[rb] = ra
            return ra
        if first.kind == "unknown" and second.kind == "unknown" and _traced(second) and not _traced(first):
            ra, rb, first, second = rb, ra, second, first  # keep the record that knows where its entries come from
        if second.kind in ("unknown", "one") or (second.kind == "pos" and self._positioned(ra)):
            self._parent[rb] = self.base_of(ra)  # a mask's axis joins the sequence, not one role of it
            return ra
        if first.kind in ("unknown", "one") or (first.kind == "pos" and self._positioned(rb)):
            self._parent[ra] = self.base_of(rb)
            return rb
        if first.kind in SEQ_LIKE and second.kind in SEQ_LIKE:
            return self._unify_positions(ra, rb, event)
        if first.kind == second.kind and first.kind in ("batch", "feature", "head", "pos", "merged"):
            self._parent[rb] = ra
            return ra
        if "pos" in (first.kind, second.kind):
            other = second if first.kind == "pos" else first
            mistaken = other.kind in POSITIONAL_MISTAKES or self._holds_batch(other)
            if not mistaken or (inside_flattened and other.kind != "batch"):
                return ra  # no claim either way (an arange over heads inside B·H: ALiBi slopes)
            self.conflicts.append(Conflict(event, ra, rb, "positional"))
            return ra
        # a sequence meeting another kind of positions (flattened patches): two different sequences
        positions = self.is_positions(ra) and self.is_positions(rb)
        reason = "sequences" if positions and (first.kind in SEQ_LIKE or second.kind in SEQ_LIKE) else "kinds"
        self.conflicts.append(Conflict(event, ra, rb, reason))
        return ra

    def sequence_of(self, axis: int) -> str:
        """The sequence an axis indexes, as its query/key copies name it (patches made by the model too)."""
        record = self.get(axis)
        return record.seq or f"axis{self.base_of(axis)}"

    def holds_batch(self, axis: int) -> bool:
        """The batch, or a merged axis with the batch among its parts: samples are in it."""
        record = self.get(axis)
        return record.kind == "batch" or self._holds_batch(record)

    def _holds_batch(self, record: Axis) -> bool:
        """A merged axis with the batch among its parts (`B·C` of a channel-independent encoder)."""
        return record.kind == "merged" and any(self.get(part).kind == "batch" for part in record.parts)

    def _positioned(self, root: int) -> bool:
        """Whether positions may meet this axis: a sequence or a grid, also flattened (patches)."""
        return self.axes[root].kind in POSITIONED or self.is_positions(root)

    def _copy_meets_base(self, copy: int, other: int) -> bool:
        record = self.axes[copy]
        return record.role is not None and record.base is not None and self.find(record.base) == other

    def _same_structure(self, first: Axis, second: Axis) -> bool:
        """Two flattened axes made of parts of equal sizes, in the same order."""
        if not (first.parts and second.parts) or "mixed" in (first.kind, second.kind):
            return False
        sizes = [self.get(part).size for part in first.parts]
        return len(first.parts) == len(second.parts) and sizes == [self.get(part).size for part in second.parts]

    def _unify_positions(self, ra: int, rb: int, event: int) -> int:
        first, second = self.axes[ra], self.axes[rb]
        if first.seq != second.seq:
            self.conflicts.append(Conflict(event, ra, rb, "sequences"))
            self.note_shift(ra, rb)
        elif first.role and second.role and first.role != second.role:
            self.conflicts.append(Conflict(event, ra, rb, "roles"))
        elif first.role == second.role:
            self._parent[rb] = ra
        return ra  # a role copy meeting its own sequence is fine, and both stay as they are

    def _pieces_meet(self, first: Axis, second: Axis, event: int) -> bool:
        """Two concatenations of pieces of the same sizes meet piece by piece (a mask joined from
        ones for the task tokens and a step mask repeated per token, against the tokens joined the
        same way): each piece meets its twin, and the two are one sequence if every pair became one."""
        if not first.joined or len(first.joined) != len(second.joined) or \
                [self.get(piece).size for piece in first.joined] != [self.get(piece).size for piece in second.joined]:
            return False
        for piece_a, piece_b in zip(first.joined, second.joined):
            self.unify(piece_a, piece_b, event)
        return all(self.same(piece_a, piece_b) for piece_a, piece_b in zip(first.joined, second.joined))

    def note_shift(self, a: int, b: int) -> None:
        """Two cuts of one sequence at different starts met element by element (`logits[:, :-1]`
        gathered at `ids[:, 1:]`): what `a` carries on stands for the positions of both."""
        ra, rb = self.find(a), self.find(b)
        first, second = self.axes[ra], self.axes[rb]
        if first.cut_from is None or second.cut_from is None or first.cut_start is None or \
                second.cut_start is None or self.find(first.cut_from) != self.find(second.cut_from):
            return
        starts = {second.cut_start, *second.also_starts, *first.also_starts} - {first.cut_start}
        if starts:
            self.axes[ra] = first.replaced(also_starts=tuple(sorted(starts)))

    # ---------------------------------------------------------------- derived axes
    def role_copy(self, axis: int, role: str, event: int) -> int:
        """The query-side or key-side copy of a sequence axis inside a score table."""
        base = self.base_of(axis)
        key = ("role", base, role)
        if key not in self._memo:
            record = self.axes[base]
            kind = record.kind if record.kind in DIAGNOSTIC_KINDS else "seq"
            suffix = "q" if role == "query" else "k"
            name = record.display
            if not record.name or "+" in name or "·" in name or record.kind in ("merged", "spatial", "unknown"):
                name = MADE_SEQUENCE  # patches, latents, CLS + tokens: "Nq", "Nk", described by the label
            name = f"T{suffix}{name[1:]}" if name.startswith("T") else f"{name}{suffix}"  # T_src -> Tq_src
            self._memo[key] = self.new(
                kind, record.size, name=name, seq=record.seq or f"axis{base}",
                role=role, base=base, origin=event, label=f"{role} positions of {record.display}",
            )
        return self._memo[key]

    def factors(self, axis: int, sizes: tuple[int, ...], event: int) -> list[int]:
        """Split `axis` into consecutive factors of the given sizes (a reshape into heads)."""
        root = self.find(axis)
        record = self.axes[root]
        if record.parts and tuple(self.get(p).size for p in record.parts) == sizes:
            return list(record.parts)
        if record.kind == "batch" and record.parts and \
                not _respects(tuple(self.get(p).size for p in record.parts), sizes):
            # B·H unfolded as (H, B): each piece holds some samples and some heads, a tear
            return [self.mixed(list(record.parts), size, event) for size in sizes]
        key = ("factors", root, sizes)
        if key not in self._memo:
            made = []
            for position, size in enumerate(sizes):
                if record.kind == "feature":
                    last = position == len(sizes) - 1
                    kind, name = ("feature", f"{record.display}h") if last else ("head", "H")
                elif record.kind == "batch":
                    kind, name = "batch", "B"
                else:
                    kind, name = "unknown", ""
                made.append(self.new(kind, size, name=name, base=root, origin=event,
                                     label=f"factor {position + 1} of {len(sizes)} of {record.display}"))
            self._memo[key] = tuple(made)
        return list(self._memo[key])

    def patches_embedded(self, axis: int) -> None:
        """A projection reads `axis`, the last of two factors cut from an input's own dim before any
        layer read it (`rearrange(signal, "b c (p s) -> b c p s")`, then `nn.Linear(s, d)`): the cut
        made patches and the samples in each, not heads and their features, so the first factor is
        the patches' positions along the signal."""
        record = self.get(axis)
        if record.kind != "feature" or record.base is None:
            return
        split = self.axes[self.find(record.base)]
        if split.kind != "feature" or not split.label.startswith(INPUT_FEATURES):
            return
        made = self._memo.get(("factors", record.base, (split.size // record.size, record.size)))
        if made is None or self.find(made[1]) != self.find(axis):
            return
        first = self.find(made[0])
        if self.axes[first].kind == "head":
            self.axes[first] = self.axes[first].replaced(
                kind="seq", name="P", seq=f"patches@{first}", label=f"patches cut from {split.display}")

    def taken_apart(self, axis: int) -> None:
        """An axis taken apart piece by piece (unbind, an integer index). A head factor so taken is
        split into three or more factors is the q/k/v selector of a fused projection
        (`view(B, T, 3, H, d_h)`), not heads (those are indexed as a whole): it is named
        `qkv` (`kv` for two pieces), so the heads keep the name H alone."""
        root = self.find(axis)
        record = self.axes[root]
        fused = any(key[0] == "factors" and len(made) >= 3 and any(self.find(m) == root for m in made)
                    for key, made in self._memo.items())
        if fused and record.kind == "head" and record.name == "H" and record.size in (2, 3):
            name = "qkv" if record.size == 3 else "kv"
            self.axes[root] = record.replaced(name=name, label=f"{name}: the pieces of a fused projection")

    def merge(self, parts: list[int], event: int) -> int:
        """The axis made by flattening `parts` (in order) into one dimension."""
        roots = tuple(self.find(p) for p in parts)
        bases = {self.axes[r].base for r in roots}
        if len(bases) == 1 and None not in bases:
            base = bases.pop()
            if ("factors", base, tuple(self.axes[r].size for r in roots)) in self._memo and \
                    self._memo[("factors", base, tuple(self.axes[r].size for r in roots))] == roots:
                return base
        key = ("merge", roots)
        if key not in self._memo:
            kinds = {self.axes[r].kind for r in roots}
            size = 1
            for r in roots:
                size *= self.axes[r].size
            if kinds <= {"batch", "head"}:
                kind = "batch"
            elif kinds <= {"feature", "head"}:
                kind = "feature"
            elif kinds & set(SEQ_LIKE) and any(self._is_feature_piece(r) for r in roots):
                kind = "mixed"  # per-head features flattened into a sequence
            else:
                kind = "merged"
            name = "·".join(self.axes[r].display for r in roots)
            self._memo[key] = self.new(kind, size, name=name, parts=roots, origin=event,
                                       label=f"{name} flattened into one axis")
        return self._memo[key]

    def _is_feature_piece(self, root: int) -> bool:
        record = self.axes[root]
        return record.kind == "feature" and record.base is not None

    def mixed(self, parts: list[int], size: int, event: int) -> int:
        """An axis made by a reshape that tears `parts` into each other."""
        roots = tuple(self.find(p) for p in parts)
        names = ", ".join(self.axes[r].display for r in roots)
        return self.new("mixed", size, name="?", parts=roots, origin=event, label=f"a mix of {names}")

    def is_positions(self, axis: int) -> bool:
        """A sequence, a grid, or grids flattened together (patches): positions of something."""
        record = self.get(axis)
        if record.kind in SEQ_LIKE or record.kind == "spatial":
            return True
        return record.kind == "merged" and bool(record.parts) and all(self.is_positions(p) for p in record.parts)

    def join(self, pieces: list[int], event: int) -> int:
        """A sequence concatenated from `pieces` in order (CLS + patches, memory + tokens, past + new)."""
        roots = tuple(self.find(piece) for piece in pieces)
        key = ("join", roots)
        if key not in self._memo:
            names = [self.axes[r].name or str(self.axes[r].size) for r in roots]
            name = "+".join(names)
            size = sum(self.axes[r].size for r in roots)
            self._memo[key] = self.new("seq", size, name=name, seq=f"{name}@{event}", joined=roots, origin=event,
                                       label=f"{name} concatenated into one sequence")
        return self._memo[key]

    def shifted_from(self, axis: int) -> int | None:
        """The sequence `axis` is a shift of, if any: joined from extra tokens and one cut of that
        sequence that leaves out as many (`cat([start, x[:, :-1]])`, a history one step behind),
        so as long as it by construction, position for position."""
        record = self.get(self.base_of(axis))
        if not record.joined:
            return None
        cuts = [piece for piece in record.joined if self.get(piece).cut_from is not None]
        if len(cuts) != 1:
            return None
        cut = self.get(cuts[0])
        source = self.find(cut.cut_from)
        if self.get(source).size != record.size or cut.cut_start not in (0, record.size - cut.size):
            return None
        return source

    def alignment(self, query: int, key: int) -> int | None:
        """How far key positions run ahead of query positions (query t is key t + offset), when
        both index one sequence: 0 for self-attention, P for P cached or memory keys in front (keys
        joined after the queries' own, a learned bias slot, leave it 0)."""
        query_base, key_base = self.base_of(query), self.base_of(key)
        if query_base == key_base:
            return 0
        joined = self.axes[key_base].joined
        for index, piece in enumerate(joined):  # cached keys before the new ones, or slots after them (bias_kv)
            if self.find(self.base_of(piece)) == query_base:
                return sum(self.get(before).size for before in joined[:index])
        return None

    def describe(self, axis: int) -> str:
        """`T=5`-style name of an axis with its size, for messages and labels: a singleton is `1`,
        an axis nothing named is its size alone."""
        record = self.get(axis)
        if record.kind == "one":
            return "1"
        if record.kind == "unknown" and not record.name:
            return str(record.size)
        return f"{record.display}={record.size}"

    def describe_shape(self, axes: tuple[int, ...]) -> str:
        return " × ".join(self.describe(a) for a in axes) if axes else "scalar"
