"""Which dims a witness's region can place: an unnamed axis the batch's size is undetermined, unless
where its entries come from is known (copies made by a tiling, entries picked by `topk`)."""

from __future__ import annotations

from tracer.axes import COPIES, AxisTable
from tracer.witness.regions import Region, coordinates

BATCH = Region("batch", sizes=frozenset({3}), sample=0)


def placed(table: AxisTable, axis: int):
    return coordinates(table, axis, table.get(axis).size, BATCH, output=True)


def test_an_unnamed_axis_the_size_of_the_batch_is_undetermined():
    table = AxisTable()
    assert placed(table, table.new("unknown", 3)) is None
    assert placed(table, table.new("unknown", 4)) == []


def test_copies_carry_no_sample_whatever_their_size():
    table = AxisTable()
    assert placed(table, table.new("unknown", 3, label=COPIES)) == []


def test_picked_entries_carry_what_their_source_carries():
    table = AxisTable()
    batch, vocab = table.new("batch", 3), table.new("feature", 25)
    beams = table.new("unknown", 3, label=COPIES)
    for _ in range(6):  # a beam search's steps: scores picked from (beams x vocabulary), again and again
        beams = table.new("unknown", 3, picked_from=table.merge([beams, vocab], 0))
    assert placed(table, beams) == []
    from_batch = table.new("unknown", 3, picked_from=table.merge([batch, vocab], 0))
    assert placed(table, from_batch) is None  # picked across samples: it may hold any of them


def test_a_cycle_of_picks_adds_nothing():
    table = AxisTable()
    vocab = table.new("feature", 25)
    scores = table.new("unknown", 3, label=COPIES)
    picked = table.new("unknown", 3, picked_from=table.merge([scores, vocab], 0))
    table.unify(scores, picked, 0)  # the next step's scores are this step's picks
    assert placed(table, picked) == []


def test_a_bare_unknown_aligned_with_copies_becomes_copies():
    table = AxisTable()
    zeros, copies = table.new("unknown", 3), table.new("unknown", 3, label=COPIES)
    table.unify(zeros, copies, 0)
    assert table.get(zeros).label == COPIES
