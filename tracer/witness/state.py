"""The model's state while witnesses run: taken before the recorded pass, put back between runs.

A witness compares forward passes that differ only in their inputs, so each must start from
the state the recorded pass started from: a KV cache written in place, a step counter, a
list that grows, a cache object passed as an argument. `Snapshot` keeps what a forward pass
may change (buffers, plain attributes of every module, the arguments) and puts it back *in
place*: the same tensor, list, dict and object identities the user holds, refilled, so
sharing between modules survives. Parameters are only watched: a forward that writes them
cannot be undone, and the witnesses then do not run. After the witnesses the state the
recorded pass left is put back, so the model is exactly as one forward pass left it.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

DEPTH = 4  # how deep containers and plain objects are followed
# Module attributes that are the module's machinery, not its state.
_MACHINERY = frozenset({"_parameters", "_buffers", "_modules", "training"})
_OPAQUE = (nn.Module, type, types.FunctionType, types.MethodType, types.ModuleType, torch.dtype, torch.device)


@dataclass
class Saved:
    """One value as it was: the object itself and, for mutable ones, what it held."""

    original: Any
    held: Any = None  # a tensor's copy, a list's / dict's saved items, an object's saved attributes


def save(value: Any, depth: int = 0, seen: dict[int, Saved] | None = None) -> Saved:
    seen = {} if seen is None else seen
    if id(value) in seen:
        return seen[id(value)]
    saved = Saved(value)
    seen[id(value)] = saved
    if isinstance(value, torch.Tensor):
        # a tensor whose elements share memory (an `expand`ed one) cannot be written in place, by the
        # forward or by us: the object itself is all there is to keep (an attribute rebound is put back)
        saved.held = None if _overlaps(value) else value.detach().clone()
    elif depth >= DEPTH or isinstance(value, _OPAQUE):
        pass
    elif isinstance(value, list):
        saved.held = [save(item, depth + 1, seen) for item in value]
    elif isinstance(value, dict):
        saved.held = {key: save(item, depth + 1, seen) for key, item in value.items()}
    elif isinstance(value, tuple):
        saved.held = tuple(save(item, depth + 1, seen) for item in value)
    elif hasattr(value, "__dict__"):
        saved.held = {key: save(item, depth + 1, seen) for key, item in vars(value).items()}
    return saved


def _overlaps(tensor: torch.Tensor) -> bool:
    """Whether some elements of the tensor are one memory location (a stride 0 over a dim of size > 1)."""
    return any(stride == 0 and size > 1 for stride, size in zip(tensor.stride(), tensor.shape))


def restore(saved: Saved, done: set[int] | None = None) -> Any:
    """The original object, refilled with what it held when saved (tuples are rebuilt)."""
    done = set() if done is None else done
    value, held = saved.original, saved.held
    if held is None or id(saved) in done:
        return value
    done.add(id(saved))
    if isinstance(value, torch.Tensor):
        with torch.no_grad():
            if value.shape == held.shape and value.dtype == held.dtype:
                value.copy_(held)
            else:
                value.data = held.clone()
    elif isinstance(value, list):
        value[:] = [restore(item, done) for item in held]
    elif isinstance(value, dict):
        items = {key: restore(item, done) for key, item in held.items()}
        value.clear()
        value.update(items)
    elif isinstance(value, tuple):
        return type(value)(restore(item, done) for item in held) if type(value) is tuple else value
    else:
        for key, item in held.items():
            try:
                setattr(value, key, restore(item, done))
            except (AttributeError, TypeError):  # a read-only attribute: left as it is
                pass
    return value


@dataclass
class _ModuleState:
    module: nn.Module
    buffers: dict[str, Saved]
    attributes: dict[str, Saved]
    training: bool


@dataclass
class Snapshot:
    """What a forward pass may change in a model and its arguments, as it was when taken."""

    modules: list[_ModuleState] = field(default_factory=list)
    arguments: Saved | None = None
    versions: dict[int, int] = field(default_factory=dict)  # id(parameter) -> its version counter

    @classmethod
    def take(cls, model: nn.Module, args: tuple, kwargs: dict[str, Any]) -> "Snapshot":
        snapshot, seen = cls(), {}
        for module in model.modules():
            buffers = {name: save(buffer, 0, seen) for name, buffer in module._buffers.items()}
            attributes = {name: save(value, 0, seen) for name, value in vars(module).items()
                          if name not in _MACHINERY and not name.startswith("_")}
            snapshot.modules.append(_ModuleState(module, buffers, attributes, module.training))
        snapshot.arguments = save((list(args), kwargs), 0, seen)
        snapshot.versions = {id(parameter): parameter._version for parameter in model.parameters()}
        return snapshot

    def parameters_changed(self, model: nn.Module) -> bool:
        """Whether a forward pass wrote a parameter in place (that cannot be put back)."""
        return any(self.versions.get(id(parameter)) != parameter._version for parameter in model.parameters())

    def restore(self) -> tuple[tuple, dict[str, Any]]:
        """Put every buffer, attribute and argument back; returns the arguments to run with."""
        done: set[int] = set()
        for saved in self.modules:
            module = saved.module
            for name in [name for name in module._buffers if name not in saved.buffers]:
                del module._buffers[name]
            for name, buffer in saved.buffers.items():
                module._buffers[name] = restore(buffer, done)
            for name in [name for name in vars(module) if name not in _MACHINERY and not name.startswith("_")]:
                if name not in saved.attributes:
                    delattr(module, name)
            for name, value in saved.attributes.items():
                object.__setattr__(module, name, restore(value, done))
            module.training = saved.training
        args, kwargs = restore(self.arguments, done) if self.arguments is not None else ([], {})
        return tuple(args), kwargs


def take_snapshot(model: nn.Module, args: tuple, kwargs: dict[str, Any]) -> Snapshot | None:
    """The snapshot, or None for a model or argument this cannot copy (the witnesses then say so)."""
    try:
        return Snapshot.take(model, args, kwargs)
    except Exception:  # noqa: BLE001 - an exotic model: no witness, said in one note
        return None
