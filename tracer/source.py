"""Finding the user's own source line behind a call: the first frame outside torch and attnscope."""

from __future__ import annotations

import os
import sys
from types import FrameType, TracebackType

import torch

_INTERNAL_ROOTS = tuple(
    os.path.dirname(os.path.abspath(module.__file__)) + os.sep
    for module in (torch, sys.modules[__package__])
)
_is_internal_cache: dict[str, bool] = {}


def _is_internal(filename: str) -> bool:
    known = _is_internal_cache.get(filename)
    if known is None:
        known = os.path.abspath(filename).startswith(_INTERNAL_ROOTS) or filename.startswith("<frozen ")
        _is_internal_cache[filename] = known
    return known


_RECORDING_FILES = tuple(os.path.join(_INTERNAL_ROOTS[1], name) for name in ("recorder.py", "source.py"))


def _is_caller_side(filename: str) -> bool:
    """attnscope code that *calls* the model (the CLI, `check`), as opposed to the recorder inside it."""
    return filename.startswith(_INTERNAL_ROOTS[1]) and not filename.startswith(_RECORDING_FILES)


def user_frame(start: FrameType | None = None) -> FrameType | None:
    """The innermost frame whose code lives outside torch and attnscope.

    The search stops at attnscope's own calling code: an op of a torch library module that
    attnscope called directly has no user line, rather than the attnscope launcher's.
    """
    frame = start if start is not None else sys._getframe(1)
    while frame is not None and _is_internal(frame.f_code.co_filename):
        if _is_caller_side(os.path.abspath(frame.f_code.co_filename)):
            return None
        frame = frame.f_back
    return frame


def user_location() -> tuple[str, int]:
    """`(file, line)` of the user's call being recorded, or `("", 0)` if there is none."""
    frame = user_frame(sys._getframe(1))
    if frame is None:
        return "", 0
    return frame.f_code.co_filename, frame.f_lineno


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
            found = (code.co_filename, traceback.tb_lineno)
        traceback = traceback.tb_next
    if found == ("", 0) and outermost is not None:
        caller = user_frame(outermost.f_back) if outermost.f_back is not None else None
        if caller is not None:
            found = (caller.f_code.co_filename, caller.f_lineno)
    return found
