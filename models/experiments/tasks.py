"""A synthetic sequence classification whose difficulty is understood: lag-D repetition.

No data set can be downloaded, so the experiments generate their data. The task is chosen
so that what a model must see to solve it is a single number, the distance D:

- class 1: a random block of D symbols repeated to fill the sequence (x[t] = x[t - D]);
- class 0: every symbol drawn independently.

Any D or fewer consecutive symbols are independent and uniform in BOTH classes. So in a
model in which no output position sees two positions D apart, every position's features
have the same distribution in both classes and their mean over positions has the same
expected value: only its spread differs (class 1 repeats each window about T/D times), a weak cue that a
thresholded linear read-out can use a little. A window narrower than the dependency should
stay near chance; one that spans it can succeed.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

PAD_ID = 0  # reserved by the reference classifiers; the generated sequences never contain it


@dataclass(frozen=True)
class RepeatTask:
    """Sequences of `length` symbols in 1..`symbols`; the label says whether they repeat every `distance`."""

    length: int
    distance: int
    symbols: int = 8

    def __post_init__(self) -> None:
        if not 0 < self.distance < self.length:
            raise ValueError(f"the distance D={self.distance} must lie between 1 and T-1={self.length - 1}")

    @property
    def vocab(self) -> int:
        """Embedding rows: the symbols plus the padding id 0."""
        return self.symbols + 1

    @property
    def num_classes(self) -> int:
        return 2

    def describe(self) -> str:
        return (f"lag-{self.distance} repetition, T={self.length}, {self.symbols} symbols: is x[t] = x[t-{self.distance}] "
                "for every t (class 1) or is every symbol random (class 0)?")

    def sample(self, count: int, seed: int) -> tuple[Tensor, Tensor]:
        """`count` sequences (count, T) int64 and their labels (count,): half of each class (one more 0 if odd).

        The same (task, count, seed) always gives the same tensors, so every model of an
        experiment sees the same split.
        """
        generator = torch.Generator().manual_seed(seed)
        labels = torch.randperm(count, generator=generator) % 2
        noise = torch.randint(1, self.symbols + 1, (count, self.length), generator=generator)
        periods = -(-self.length // self.distance)
        repeated = noise[:, : self.distance].repeat(1, periods)[:, : self.length]
        return torch.where(labels.bool().unsqueeze(1), repeated, noise), labels
