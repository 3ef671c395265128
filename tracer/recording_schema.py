"""The schema of `recording.json`, derived from the recording's own dataclasses.

A saved recording is checked against it before anything is rebuilt, so a file with a part
missing or of the wrong type is refused with a message that names the part
(`events[3].inputs[0] lacks "shape"`) instead of loading as a clean, empty recording.
The schema is the type hints of `Recording` and the records it holds: a field without a
default must be present, and every present field must have its declared JSON type. A
field added later with a default keeps older files readable.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Union

from .events import Recording, Source

# `Recording.values` is stored beside the JSON (values.safetensors); `sources` is written as a list.
NOT_IN_JSON = ("values",)
STORED_AS = {"sources": list[Source]}
# Present in every version-1 file although the dataclass gives them defaults.
ALWAYS_WRITTEN = ("events", "module_calls", "sources", "outputs")


class SchemaError(ValueError):
    """What in the document does not match the schema, as one line."""


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _required(cls: type) -> set[str]:
    return {
        item.name for item in dataclasses.fields(cls)
        if item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING
    }


def _type_name(expected: Any) -> str:
    origin = typing.get_origin(expected)
    if origin in (list, tuple):
        return "a list"
    if origin is dict or dataclasses.is_dataclass(expected):
        return "an object"
    return f"{getattr(expected, '__name__', expected)}"


def _check(value: Any, expected: Any, where: str) -> None:
    """Raise `SchemaError` when `value` (read from JSON) is not of the declared type `expected`."""
    if expected is Any:
        return
    origin = typing.get_origin(expected)
    if origin in (Union, types.UnionType):
        options = typing.get_args(expected)
        if value is None and type(None) in options:
            return
        _check(value, next(option for option in options if option is not type(None)), where)
        return
    if dataclasses.is_dataclass(expected):
        _check_object(value, expected, where)
        return
    if origin in (list, tuple):
        if not isinstance(value, list):
            raise SchemaError(f"{where} is not {_type_name(expected)}")
        (item_type, *_) = typing.get_args(expected) or (Any,)
        for position, item in enumerate(value):
            _check(item, item_type, f"{where}[{position}]")
        return
    if origin is dict:
        if not isinstance(value, dict):
            raise SchemaError(f"{where} is not an object")
        return
    allowed: tuple[type, ...] = (int, float) if expected is float else (expected,)
    if not isinstance(value, allowed) or (expected is not bool and isinstance(value, bool)):
        raise SchemaError(f"{where} is not {_type_name(expected)}")


def _check_object(value: Any, cls: type, where: str, required: set[str] | None = None) -> None:
    if not isinstance(value, dict):
        raise SchemaError(f"{where} is not an object")
    hints = _hints(cls)
    for name in sorted((_required(cls) if required is None else required) - set(value)):
        raise SchemaError(f'{where or "recording.json"} lacks "{name}"')
    for name, item in value.items():
        if name in hints and name not in NOT_IN_JSON:
            expected = STORED_AS.get(name, hints[name]) if cls is Recording else hints[name]
            _check(item, expected, f"{where}.{name}" if where else name)


def validate(document: dict[str, Any]) -> None:
    """Check `recording.json`'s content against the schema; raise `SchemaError` naming the first problem."""
    missing = [name for name in ALWAYS_WRITTEN if name not in document]
    if missing:
        raise SchemaError(f"the recording has no {' and no '.join(missing)} (recording.json lacks them)")
    _check_object(document, Recording, "", _required(Recording) | set(ALWAYS_WRITTEN))
