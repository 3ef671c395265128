"""`torch.compile` under attnscope: the original Python code runs, and is traced, with a note.

A compiled module runs dynamo's rewritten graph, whose ops are not the user's lines, and
tracing through dynamo fails with errors of its own (a bogus "already tracked for mutation"
shape-error). Every entry point therefore traces the original code:

- code that attnscope runs itself (a target's build, a whole script) sees a `torch.compile`
  that hands back what it was given (`uncompiled`);
- a model compiled before it reached attnscope (`tracer.check(torch.compile(model), x)`) is
  unwrapped to its `_orig_mod`, and anything compiled inside it runs eagerly (`eager`).
"""

from __future__ import annotations

import functools
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from torch import nn


def _note_for(model: Any) -> str:
    owner = getattr(model, "__self__", model)  # `Module.compile` passes its bound `_call_impl`
    from torch import nn

    if isinstance(owner, nn.Module):
        return f"torch.compile({type(owner).__name__}) ran uncompiled: attnscope traced the original module (_orig_mod)"
    return f"torch.compile({getattr(model, '__qualname__', 'a function')}) ran uncompiled under attnscope"


def _add(notes: list[str], note: str) -> None:
    if note not in notes:
        notes.append(note)


@contextmanager
def uncompiled(notes: list[str]) -> Iterator[None]:
    """Make `torch.compile` (and `Module.compile`, which calls it) hand back what it was given.

    The note is made when the compiled thing first runs, not when it is compiled: a compiled
    optimizer step or helper that the traced code never calls ran neither way.
    """
    import torch
    from torch import nn

    original = torch.compile

    def compile(model: Any = None, **options: Any) -> Any:
        if model is None:  # `@torch.compile(mode=...)`: the decorator form
            return lambda target: compile(target, **options)
        note = _note_for(model)
        if isinstance(model, nn.Module):  # handed back itself (its attributes are the user's), noted on its first call
            def first_call(*_: Any) -> None:
                _add(notes, note)
                handle.remove()

            handle = model.register_forward_pre_hook(first_call)
            return model

        @functools.wraps(model)
        def noted(*args: Any, **kwargs: Any) -> Any:
            _add(notes, note)
            return model(*args, **kwargs)

        return noted

    torch.compile = compile
    try:
        yield
    finally:
        torch.compile = original


def unwrap(model: nn.Module, notes: list[str]) -> nn.Module:
    """The module a `torch.compile(...)` wrapper (an `OptimizedModule`) stands for, noting it."""
    while hasattr(model, "_orig_mod") and type(model).__name__ == "OptimizedModule":
        model = model._orig_mod
        _add(notes, _note_for(model))
    for inner in model.modules():
        if getattr(inner, "_compiled_call_impl", None) is not None or type(inner).__name__ == "OptimizedModule":
            _add(notes, f"torch.compile({type(inner).__name__}) inside the model ran eagerly under attnscope")
    return model


@contextmanager
def eager() -> Iterator[None]:
    """Run whatever was compiled with `torch.compile` as plain eager PyTorch inside the block.

    Nothing can have been compiled before dynamo was imported (`torch.compile` imports
    it), so a process that never compiled does not pay for importing dynamo here.
    """
    if "torch._dynamo" not in sys.modules:
        yield
        return
    import torch

    with torch.compiler.set_stance("force_eager"):
        yield
