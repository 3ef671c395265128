"""How the recorder writes a call's arguments down: JSON-able data, tensors as slots.

Finding the tensors among the arguments is the walk that normalizing them needs anyway,
so both happen in one pass: numbers, strings and None (most arguments) go through as they
are, tensors become {"$t": i} and are collected, and only the rare rest (slices, dtypes,
nested containers) takes the general path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Iterator

import torch

from .events import TENSOR_SLOT

_AS_IS = frozenset({int, float, bool, str, type(None)})
_NAMED = (torch.dtype, torch.device, torch.layout, torch.memory_format)
Tensor = torch.Tensor


def plain(value: Any, tensors: list[torch.Tensor]) -> Any:
    """`value` as JSON-able data, tensors replaced by {"$t": i} and appended to `tensors`."""
    if isinstance(value, torch.Tensor):
        tensors.append(value)
        return {TENSOR_SLOT: len(tensors) - 1}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(item, tensors) for item in value]
    if isinstance(value, dict):
        return {str(key): plain(item, tensors) for key, item in value.items()}
    if isinstance(value, slice):
        return {"slice": [plain(value.start, tensors), plain(value.stop, tensors), plain(value.step, tensors)]}
    if value is Ellipsis:
        return "..."
    if isinstance(value, _NAMED):
        return str(value)
    return {"object": type(value).__name__}


def plain_args(args: tuple, tensors: list[torch.Tensor]) -> tuple:
    """`plain` of each positional argument, with the common kinds inline."""
    out = []
    for value in args:
        if isinstance(value, Tensor):
            tensors.append(value)
            out.append({TENSOR_SLOT: len(tensors) - 1})
        elif type(value) in _AS_IS:
            out.append(value)
        else:
            out.append(plain(value, tensors))
    return tuple(out)


def plain_kwargs(kwargs: dict[str, Any], tensors: list[torch.Tensor]) -> dict[str, Any]:
    out = {}
    for key, value in kwargs.items():
        if type(value) in _AS_IS:
            out[str(key)] = value
        else:
            out[str(key)] = plain(value, tensors)
    return out


def tensors_in(value: Any) -> Iterator[torch.Tensor]:
    """Every tensor inside nested tuples, lists, dicts and dataclass-like outputs, in order."""
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from tensors_in(item)
    elif isinstance(value, Mapping):  # dicts, ModelOutput, BatchEncoding (a UserDict)
        for item in value.values():
            yield from tensors_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from tensors_in(getattr(value, item.name))


def tensor_list(value: Any) -> list[torch.Tensor]:
    """`list(tensors_in(value))`, without generators for the common cases: a module's
    arguments (a tuple of tensors) and its output (one tensor)."""
    if isinstance(value, Tensor):
        return [value]
    if type(value) is tuple:
        found = [item for item in value if isinstance(item, Tensor)]
        if len(found) == len(value):
            return found
    return list(tensors_in(value))


def output_tensors(result: Any) -> list[torch.Tensor]:
    """The tensors an op returned: most return one tensor, a few a tuple, some a number."""
    if isinstance(result, Tensor):
        return [result]
    if type(result) in _AS_IS:
        return []
    return list(tensors_in(result))
