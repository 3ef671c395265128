"""Finding the user's own source line behind a call: the first frame outside torch and attnscope.

The recorder asks for every op, so whether a frame is the user's is cached per code object:
the walk to the user's frame is then a dictionary lookup per frame, and no frame is ever
formatted.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from types import CodeType, FrameType, TracebackType

import torch

_INTERNAL_ROOTS = tuple(
    os.path.dirname(os.path.abspath(module.__file__)) + os.sep
    for module in (torch, sys.modules[__package__])
)
# Libraries that only rearrange tensors for the user, as torch does: a finding inside one belongs
# at the user's line that called it (`rearrange(...)`), not in the library.
TENSOR_LIBRARIES = ("einops", "opt_einsum")


def _library_roots() -> tuple[str, ...]:
    roots = []
    for name in TENSOR_LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            roots.append(os.path.dirname(os.path.abspath(spec.origin)) + os.sep)
    return tuple(roots)


_LIBRARY_ROOTS = _library_roots()
_is_internal_cache: dict[str, bool] = {}


def _is_internal(filename: str) -> bool:
    known = _is_internal_cache.get(filename)
    if known is None:
        path = os.path.abspath(filename)
        known = path.startswith(_INTERNAL_ROOTS + _LIBRARY_ROOTS) or filename.startswith("<frozen ")
        _is_internal_cache[filename] = known
    return known


_RECORDING_FILES = tuple(
    os.path.join(_INTERNAL_ROOTS[1], f"{name}.py")
    for name in ("recorder", "source", "arguments", "valuebook", "values", "statistics", "metadevice", "events")
)


def _is_caller_side(filename: str) -> bool:
    """attnscope code that *calls* the model (the CLI, `check`), as opposed to the recorder inside it."""
    return filename.startswith(_INTERNAL_ROOTS[1]) and not filename.startswith(_RECORDING_FILES)


# Every code object seen, by id, and held (`_held`) so that no id is reused while known:
# hashing a code object itself would hash its constants. A user code's entry is its cache of
# instruction offset -> line (a frame's `f_lineno` scans the line table); internal code's is
# None (passed over); attnscope's calling code's is `_CALLER_SIDE` (the search ends there).
_codes: dict[int, dict[int, int] | None] = {}
_held: list[CodeType] = []
_CALLER_SIDE: dict[int, int] = {}
_UNKNOWN: dict[int, int] = {}
_tidied: dict[int, str] = {}  # user code whose file name holds `..` or `./`: the name without them


def _tidy(filename: str) -> str:
    """`harness/../src/x.py` as `src/x.py`: the name a user (and SARIF, and GitHub) expects."""
    return os.path.normpath(filename) if filename and not filename.startswith("<") else filename


def _entry(code: CodeType) -> dict[int, int] | None:
    entry = _codes.get(id(code), _UNKNOWN)
    if entry is _UNKNOWN:
        _held.append(code)
        if not _is_internal(code.co_filename):
            entry = {}
            if _tidy(code.co_filename) != code.co_filename:
                _tidied[id(code)] = _tidy(code.co_filename)
        elif _is_caller_side(os.path.abspath(code.co_filename)):
            entry = _CALLER_SIDE
        else:
            entry = None
        _codes[id(code)] = entry
    return entry


def user_frame(start: FrameType | None = None) -> FrameType | None:
    """The innermost frame whose code lives outside torch and attnscope.

    The search stops at attnscope's own calling code: an op of a torch library module that
    attnscope called directly has no user line, rather than the attnscope launcher's.
    """
    frame = start if start is not None else sys._getframe(1)
    while frame is not None:
        entry = _entry(frame.f_code)
        if entry is _CALLER_SIDE:
            return None
        if entry is not None:
            break
        frame = frame.f_back
    return frame


def user_location(start: FrameType | None = None) -> tuple[str, int]:
    """`(file, line)` of the user's call being recorded (the first user frame from `start`,
    by default the caller's), or `("", 0)` if there is none."""
    frame = start if start is not None else sys._getframe(1)
    codes = _codes
    while frame is not None:
        code = frame.f_code
        lines = codes.get(id(code), _UNKNOWN)
        if lines is None:
            frame = frame.f_back
            continue
        if lines is _UNKNOWN:
            lines = _entry(code)
            if lines is None:
                frame = frame.f_back
                continue
        if lines is _CALLER_SIDE:
            return "", 0
        line = lines.get(frame.f_lasti)
        if line is None:
            line = lines[frame.f_lasti] = frame.f_lineno
        return _tidied.get(id(code), code.co_filename), line
    return "", 0


def raise_location(traceback: TracebackType | None) -> tuple[str, int]:
    """`(file, line)` of the user's line that raised: the innermost traceback frame outside torch.

    While the exception is still unwinding (the recorder takes it in a module hook), the
    traceback holds only the frames it has left so far, all inside torch when the traced
    model is a torch module: then the user's line is the live caller of the outermost one.
    """
    found = ("", 0)
    outermost = traceback.tb_frame if traceback is not None else None
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if not _is_internal(code.co_filename):
            found = (_tidy(code.co_filename), traceback.tb_lineno)
        traceback = traceback.tb_next
    if found == ("", 0) and outermost is not None:
        caller = user_frame(outermost.f_back) if outermost.f_back is not None else None
        if caller is not None:
            found = (_tidy(caller.f_code.co_filename), caller.f_lineno)
    return found
