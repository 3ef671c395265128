"""A reward model that reads each sequence's score at index `lengths - 1` of a right-padded batch: correct.

The twin of `padding_leak_last_index_left_padded`: with right padding `lengths - 1` is each
sequence's last real token, so no padded position is read.
"""

from .padding_leak_last_index_left_padded import RewardModel, batch

EXPECTED: tuple[str, ...] = ()


def build():
    return RewardModel(left_padded=False).eval(), batch(left_padded=False)
