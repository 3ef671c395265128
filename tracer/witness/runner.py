"""Running the model for a witness: from the recorded pass's starting state, eval mode, a fixed seed.

Each run restores the snapshot taken before the recorded pass (buffers, attributes, the
arguments), substitutes the witness's inputs, and runs in eval mode without gradients under
a random state of its own, so two runs differ only in what the witness changed (a dropout
left on in eval draws the same mask in both; the repeat witness draws another on purpose).
A run may be recorded, keeping every value, for localization. A run of the recorded inputs
whose outputs are already known (`Runner.known`) is not run again.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from ..arguments import tensors_in
from ..events import Recording
from .state import Snapshot

SEED = 20_261_202
RECORDING_BUDGET = 512 * 2**20  # value copies of one recorded witness run


@dataclass
class Run:
    outputs: list[tuple[str, torch.Tensor]]  # (name, value), in the order the recorder lists outputs
    recording: Recording | None = None


class Runner:
    def __init__(self, model: nn.Module, before: Snapshot, device: str = "cpu", restored: bool = False) -> None:
        """`restored`: the model and arguments are as `before` holds them now (just put back), so the
        first run needs no restore: a restore of an unchanged model still compares every kept value."""
        self.model, self.before, self.device = model, before, device
        self.restored = restored
        self.forwards = 0
        self.known: dict[int, Run] = {}  # seed offset -> the unrecorded run of the recorded inputs

    def run(self, replace: dict[int, torch.Tensor], seed_offset: int = 0, record: bool = False,
            rows: dict[str, int] | None = None, cached: bool = True) -> Run:
        """One forward; `rows`: parameter rows redrawn for this run only (a pad embedding), put back after;
        `cached=False`: run even a plain forward whose outputs are known (hooks are watching it)."""
        plain = not replace and not rows and not record and cached
        if plain and seed_offset in self.known:
            return self.known[seed_offset]
        with self._redrawn(rows or {}):
            run = self._run(replace, seed_offset, record)
        if plain:
            self.known[seed_offset] = run
        return run

    @contextmanager
    def _redrawn(self, rows: dict[str, int]):
        saved = []
        with torch.no_grad():
            for name, row in rows.items():
                weight = self.model.get_parameter(name)
                saved.append((weight, row, weight[row].clone()))
                generator = torch.Generator().manual_seed(SEED)
                weight[row] = torch.randn(weight[row].shape, generator=generator).to(weight.dtype)
        try:
            yield
        finally:
            with torch.no_grad():
                for weight, row, value in saved:
                    weight[row] = value

    def _run(self, replace: dict[int, torch.Tensor], seed_offset: int, record: bool) -> Run:
        if self.restored:  # nothing ran since the state was put back
            args, kwargs = tuple(self.before.arguments[0]), self.before.arguments[1]
            self.restored = False
        else:
            args, kwargs = self.before.restore(training=False)  # the flags are eval's until the witnesses end
        args, kwargs = substitute((args, kwargs), replace, [0])
        if not self.before.in_eval():
            self.model.eval()
        self.forwards += 1
        quiet = io.StringIO()  # the model's own prints were shown once, by the recorded pass
        state = torch.get_rng_state()  # what `torch.random.fork_rng(devices=[])` keeps, without its generator
        try:
            with torch.no_grad(), redirect_stdout(quiet), redirect_stderr(quiet):
                _seed(SEED + seed_offset, self.device)
                if record:
                    from ..trace import Trace

                    with Trace(self.model, keep_every_value=True, value_budget_bytes=RECORDING_BUDGET,
                               mask_budget_bytes=RECORDING_BUDGET) as recorded:
                        result = self.model(*args, **kwargs)
                    return Run(named_outputs(result), recorded.recording)
                result = self.model(*args, **kwargs)
        finally:
            torch.set_rng_state(state)
        return Run(named_outputs(result))


def _seed(seed: int, device: str) -> None:
    """`torch.manual_seed`, but on a CPU-only run only the CPU generator: `manual_seed` also queues a seed,
    with a formatted stack, for each accelerator not started, a sixth of a small model's forward."""
    if device == "cpu" and not torch.cuda.is_initialized():
        torch.default_generator.manual_seed(seed)
    else:
        torch.manual_seed(seed)


# Ops that draw from a random generator whenever they run; a dropout only when active (see `draws_random`).
RANDOM_OPS = frozenset({
    "rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "randperm", "bernoulli", "bernoulli_",
    "multinomial", "normal", "normal_", "uniform_", "random_", "exponential_", "geometric_", "cauchy_", "log_normal_",
    "poisson", "binomial", "rrelu", "rrelu_", "_standard_gamma", "_sample_dirichlet",
})


def draws_random(recording: Recording) -> bool:
    """Whether the recorded pass drew a random number (as far as torch's functions show it)."""
    for event in recording.events:
        op = event.op
        if op in RANDOM_OPS:
            return True
        if "dropout" in op and event.arg(1, "p", 0.5) != 0 and event.arg(2, "training", True) is not False:
            return True
        if op == "scaled_dot_product_attention" and event.arg(4, "dropout_p", 0.0) != 0:
            return True
    return False


def identical(first: list[tuple[str, torch.Tensor]], second: list[tuple[str, torch.Tensor]]) -> bool:
    """Whether two runs gave the very same outputs, bit for bit (NaN where the other has NaN)."""
    return len(first) == len(second) and all(
        name == other_name and _identical(value, other) for (name, value), (other_name, other) in zip(first, second))


def _identical(value: torch.Tensor, other: torch.Tensor) -> bool:
    if value.shape != other.shape or value.dtype != other.dtype or value.device != other.device:
        return False
    if torch.equal(value, other):
        return True
    if not (value.is_floating_point() or value.is_complex()):
        return False
    nan, other_nan = torch.isnan(value), torch.isnan(other)
    return torch.equal(nan, other_nan) and torch.equal(value.masked_fill(nan, 0), other.masked_fill(other_nan, 0))


def input_tensors(args: tuple, kwargs: dict[str, Any]) -> list[torch.Tensor]:
    """The forward's tensors in the order the recorder saw them."""
    return list(tensors_in((args, kwargs)))


def substitute(value: Any, replace: dict[int, torch.Tensor], counter: list[int]) -> Any:
    """`value` with its n-th tensor (in `tensors_in` order) replaced by `replace[n]`."""
    if isinstance(value, torch.Tensor):
        position = counter[0]
        counter[0] += 1
        return replace.get(position, value)
    if isinstance(value, (list, tuple)):
        items = [substitute(item, replace, counter) for item in value]
        return items if isinstance(value, list) else (type(value)(*items) if hasattr(value, "_fields") else tuple(items))
    if isinstance(value, Mapping):
        items = {key: substitute(item, replace, counter) for key, item in value.items()}
        if type(value) is dict:
            return items
        try:
            return type(value)(items)
        except Exception:  # noqa: BLE001 - a mapping that cannot be rebuilt: changed in place
            value.update(items)  # type: ignore[attr-defined]
            return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {item.name: substitute(getattr(value, item.name), replace, counter) for item in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value


def named_outputs(result: Any) -> list[tuple[str, torch.Tensor]]:
    """Every output tensor with a name for messages: "the output", "logits", "output[1]"."""
    found: list[tuple[str, torch.Tensor]] = []
    _walk(result, "", found)
    if len(found) == 1:
        return [("the output", found[0][1])]
    return [(name or "the output", tensor) for name, tensor in found]


def _walk(value: Any, name: str, found: list) -> None:
    if isinstance(value, torch.Tensor):
        found.append((name, value.detach().clone()))
    elif isinstance(value, (list, tuple)):
        for position, item in enumerate(value):
            _walk(item, f"{name or 'output'}[{position}]", found)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _walk(item, str(key), found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            _walk(getattr(value, item.name), item.name, found)
