"""Saved recordings: one `.attntrace` file that reopens without the model's code.

The file is a zip (stdlib `zipfile`) of two members:

- `recording.json`: the events, module calls, sources, outputs, statistics, notes and
  error of a `Recording`, with `"format": "attnscope-recording"` and `"version": 1`;
- `values.safetensors`: the kept value copies, keyed by value id.

JSON and safetensors, never pickle, so opening a recording runs no code and other tools
can read it. Everything derived (graph, axes, attention blocks, findings) is recomputed on
load, so a recording saved by this version reads the same in a later one whose checks
improved. Reading fails with a one-line `RecordingError` for anything that is not a
recording this version understands: the CLI prints it and exits 2. `recording.json` is
checked against the schema of `recording_schema` first, so a part missing (the events, the
values member) gets its own message and never loads as an empty, clean recording; then its
parts against each other (`recording_integrity`), so events emptied or cut short are refused too.

torch and safetensors are imported where tensors are read or written, so that telling a
recording from a target (`is_recording_path`) costs nothing.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any, Callable

from .events import ModuleCall, OpEvent, Recording, Source, TensorMeta, ValueStats
from .recording_integrity import inconsistency
from .recording_schema import SchemaError, validate
from .targets import TargetError

if TYPE_CHECKING:
    import torch

FORMAT = "attnscope-recording"
VERSION = 1
SUFFIX = ".attntrace"
RECORDING_MEMBER = "recording.json"
VALUES_MEMBER = "values.safetensors"


class RecordingError(TargetError):
    """A file that is not a recording this attnscope can read; the message is one line.

    A `TargetError`, because a recording given on the command line is a target: every
    command then prints it as one line and exits 2, as for a target that cannot be loaded.
    """


def is_recording_path(spec: str) -> bool:
    """Whether a command-line target names a saved recording rather than code to run."""
    return spec.endswith(SUFFIX)


# --------------------------------------------------------------------------- writing
def _plain(value: Any) -> Any:
    """Dataclasses as dicts of their fields, tuples as lists: what `json` can write."""
    if is_dataclass(value) and not isinstance(value, type):
        return {item.name: _plain(getattr(value, item.name)) for item in fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def encode(recording: Recording, layout: str | None) -> dict[str, Any]:
    """`recording.json`'s content: every field of the recording except the kept values."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "layout": layout}
    for item in fields(Recording):
        if item.name != "values":
            value = getattr(recording, item.name)
            # Sources as a list: JSON object keys would turn their vids into strings.
            data[item.name] = _plain(list(value.values()) if item.name == "sources" else value)
    return data


def _stored(tensor: torch.Tensor) -> torch.Tensor:
    # safetensors writes dense, contiguous tensors only; kept values are private copies already.
    return tensor.contiguous()


def save(recording: Recording, path: str | os.PathLike[str], layout: str | None = None) -> None:
    """Write `recording` to `path`; the file is replaced whole, never left half written."""
    from safetensors.torch import save as save_tensors

    path = os.fspath(path)
    document = json.dumps(encode(recording, layout)).encode()
    values = save_tensors({str(vid): _stored(tensor) for vid, tensor in recording.values.items()})
    partial = f"{path}.partial"
    try:
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(RECORDING_MEMBER, document)
            # Stored, not deflated: float values barely compress, and deflating 64 MiB takes seconds.
            archive.writestr(VALUES_MEMBER, values, compress_type=zipfile.ZIP_STORED)
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise


# --------------------------------------------------------------------------- reading
def _tensor(data: dict[str, Any]) -> TensorMeta:
    return TensorMeta(data["vid"], tuple(data["shape"]), data["dtype"], data["device"])


def _tensors(items: list[dict[str, Any]]) -> tuple[TensorMeta, ...]:
    return tuple(_tensor(item) for item in items)


def _stats(data: dict[str, Any] | None) -> ValueStats | None:
    return None if data is None else ValueStats(**data)


def _event(data: dict[str, Any]) -> OpEvent:
    return OpEvent(**{
        **data, "args": tuple(data["args"]), "inputs": _tensors(data["inputs"]),
        "outputs": _tensors(data["outputs"]), "stats": tuple(_stats(item) for item in data["stats"]),
    })


def _module_call(data: dict[str, Any]) -> ModuleCall:
    return ModuleCall(**{**data, "inputs": _tensors(data["inputs"]), "outputs": _tensors(data["outputs"])})


def _source(data: dict[str, Any]) -> Source:
    return Source(data["kind"], data["name"], _tensor(data["meta"]))


# How each structured field of `Recording` is rebuilt; plain fields (strings, numbers, notes) load as they are.
DECODERS: dict[str, Callable[[Any], Any]] = {
    "events": lambda items: [_event(item) for item in items],
    "module_calls": lambda items: [_module_call(item) for item in items],
    "sources": lambda items: {source.meta.vid: source for source in map(_source, items)},
    "outputs": lambda items: list(_tensors(items)),
}


def decode(data: dict[str, Any], values: dict[int, torch.Tensor]) -> Recording:
    """A `Recording` from `recording.json`'s content; fields an older file lacks keep their defaults."""
    present = {
        item.name: DECODERS.get(item.name, lambda value: value)(data[item.name])
        for item in fields(Recording)
        if item.name in data and item.name != "values"
    }
    return Recording(**present, values=values)


def _check_header(data: Any, path: str) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordingError(f"{path}: not an attnscope recording ({RECORDING_MEMBER} lacks the format marker)")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordingError(f"{path}: unknown recording format version {version!r} (this attnscope reads {VERSION})")
    if version > VERSION:
        raise RecordingError(
            f"{path}: written by a newer attnscope (format version {version}; this one reads {VERSION}): upgrade attnscope"
        )


def _read_members(path: str) -> tuple[bytes, bytes]:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if RECORDING_MEMBER not in names:
                raise RecordingError(f"{path}: not an attnscope recording (a zip without {RECORDING_MEMBER})")
            if VALUES_MEMBER not in names:
                raise RecordingError(
                    f"{path}: incomplete recording: its values ({VALUES_MEMBER}) are missing from the zip"
                )
            return archive.read(RECORDING_MEMBER), archive.read(VALUES_MEMBER)
    except FileNotFoundError:
        raise RecordingError(f"{path}: no such file") from None
    except (zipfile.BadZipFile, zlib.error, EOFError) as problem:
        raise RecordingError(f"{path}: not an attnscope recording, or truncated ({_one_line(problem)})") from None
    except OSError as problem:
        raise RecordingError(f"{path}: cannot be read ({problem.strerror or _one_line(problem)})") from None


def _one_line(problem: BaseException) -> str:
    return " ".join(str(problem).split()) or type(problem).__name__


def read(path: str | os.PathLike[str]) -> tuple[Recording, str | None]:
    """The recording saved at `path` and the layout forced on it, if one was."""
    path = os.fspath(path)
    document, stored_values = _read_members(path)
    try:
        data = json.loads(document)
    except (UnicodeDecodeError, ValueError) as problem:
        raise RecordingError(f"{path}: damaged recording ({RECORDING_MEMBER}: {_one_line(problem)})") from None
    _check_header(data, path)
    try:
        validate(data)
    except SchemaError as problem:
        raise RecordingError(f"{path}: incomplete recording: {problem}") from None
    from safetensors.torch import load as load_tensors

    try:
        values = {int(vid): tensor for vid, tensor in load_tensors(stored_values).items()}
    except Exception as problem:  # safetensors reports damage with its own exception type
        raise RecordingError(f"{path}: damaged recording ({VALUES_MEMBER}: {_one_line(problem)})") from None
    try:
        recording = decode(data, values)
    except (KeyError, TypeError, ValueError, AttributeError) as problem:
        raise RecordingError(f"{path}: damaged recording ({type(problem).__name__}: {_one_line(problem)})") from None
    problem = inconsistency(recording)
    if problem:
        raise RecordingError(f"{path}: incomplete recording: {problem}")
    return recording, data.get("layout")
