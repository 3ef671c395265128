"""The zoo's entries keep the zoo interface (models/zoo/__init__.py) and the contract's codes.

No tracing here: these tests only check what a zoo entry promises by itself, so the zoo stays
truthful independently of the tracer. Each entry's docstring summary is non-empty, its
build() returns one of the contract's target forms, its bug is marked in the source, every
finding code of CONTRACT.md has at least two buggy entries, and the forward pass runs (or,
for shape-error entries, raises).
"""

from __future__ import annotations

import inspect
import re
from collections import Counter

import pytest
import torch
import torch.nn as nn

from models.zoo import catalogue

# The finding codes of CONTRACT.md's table, in its order.
CODES = (
    "softmax-axis",
    "mask-after-softmax",
    "mask-value",
    "mask-axis",
    "mask-polarity",
    "causal-leak",
    "causal-diagonal",
    "fully-masked-row",
    "scale-factor",
    "unstable-softmax",
    "head-split",
    "head-merge",
    "layernorm-axis",
    "layernorm-variance",
    "positional-axis",
    "axis-mismatch",
    "dropout-eval",
    "nan",
    "shape-error",
    "padding-leak",
    "batch-leak",
    "nondeterministic",
)

ENTRIES = catalogue()
NAMES = sorted(ENTRIES)
BUGGY = [name for name in NAMES if ENTRIES[name].expected]
MARKER = re.compile(r"#\s*BUG:\s*([a-z0-9-]+)")


def split_target(result):
    """Return (model, args, kwargs) from any of the contract's build() forms, or fail."""
    assert isinstance(result, tuple) and len(result) in (2, 3), (
        f"build() must return (model, args), (model, args, kwargs) or (model, kwargs); got {type(result).__name__}"
    )
    model, rest = result[0], result[1:]
    assert isinstance(model, nn.Module), f"the model is a {type(model).__name__}, not an nn.Module"
    if len(rest) == 1 and isinstance(rest[0], dict):
        args, kwargs = (), rest[0]
    else:
        args = rest[0]
        kwargs = rest[1] if len(rest) == 2 else {}
        if isinstance(args, torch.Tensor):
            args = (args,)
        assert isinstance(args, tuple), f"args must be a tuple, got {type(args).__name__}"
        assert isinstance(kwargs, dict), f"kwargs must be a dict, got {type(kwargs).__name__}"
    for value in (*args, *kwargs.values()):
        assert isinstance(value, torch.Tensor), f"inputs must be tensors, got {type(value).__name__}"
    return model, args, kwargs


def test_catalogue_is_not_empty():
    assert BUGGY and len(NAMES) > len(BUGGY)


@pytest.mark.parametrize("name", NAMES)
def test_summary_line(name):
    entry = ENTRIES[name]
    assert entry.summary.strip(), f"{name}: the module docstring has no first line"


@pytest.mark.parametrize("name", NAMES)
def test_expected_codes_are_contract_codes(name):
    entry = ENTRIES[name]
    assert len(entry.expected) <= 1, f"{name}: a buggy entry names exactly one code, got {entry.expected}"
    unknown = set(entry.expected) | set(entry.also)
    unknown -= set(CODES)
    assert not unknown, f"{name}: codes not in CONTRACT.md: {sorted(unknown)}"


@pytest.mark.parametrize("name", BUGGY)
def test_bug_marker(name):
    entry = ENTRIES[name]
    source = inspect.getsource(entry.module)
    marked = MARKER.findall(source)
    assert set(marked) & set(entry.expected), (
        f"{name}: no '# BUG: <code>' marker with a code of EXPECTED={entry.expected}"
    )
    stray = set(marked) - set(entry.expected) - set(entry.also)
    assert not stray, f"{name}: markers for codes outside EXPECTED/ALSO: {sorted(stray)}"


def test_every_code_has_two_buggy_entries():
    counts = Counter(code for name in BUGGY for code in ENTRIES[name].expected)
    thin = {code: counts[code] for code in CODES if counts[code] < 2}
    assert not thin, f"codes with fewer than two buggy zoo entries: {thin}"


@pytest.mark.parametrize("name", NAMES)
def test_build_and_forward(name):
    entry = ENTRIES[name]
    model, args, kwargs = split_target(entry.build())
    if entry.expected:
        assert not model.training, f"{name}: buggy entries are built in eval mode"
    if entry.expected == ("shape-error",):
        with pytest.raises(Exception):
            model(*args, **kwargs)
    else:
        model(*args, **kwargs)
