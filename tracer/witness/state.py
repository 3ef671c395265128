"""The model's state while witnesses run: taken before the recorded pass, put back between runs.

A witness compares forward passes that differ only in their inputs, so each must start from
the state the recorded pass started from: a KV cache written in place, a step counter, a
list that grows, a cache object passed as an argument. `Snapshot` keeps what a forward pass
may change (buffers, plain attributes of every module, the arguments) and puts it back *in
place*: the same tensor, list, dict and object identities the user holds, refilled, so
sharing between modules survives. Parameters are only watched: a forward that writes them
cannot be undone, and the witnesses then do not run. After the witnesses the state the
recorded pass left is put back, so the model is exactly as one forward pass left it.

Most forwards change nothing, so a restore puts back only what changed: each kept value
remembers how it looked when it last held what was saved (a container's items and an object's
attributes by identity, a large tensor by its version counter and layout) and is refilled
only when that no longer holds. A small tensor is compared by content instead, which costs
what copying it would and also sees a write through `.data` (which moves no version counter).
"""

from __future__ import annotations

import operator
import types
from itertools import chain
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

DEPTH = 4  # how deep containers and plain objects are followed
BY_CONTENT = 4096  # elements: a tensor up to this size is compared by content, not by its version counter
# Module attributes that are the module's machinery, not its state.
_MACHINERY = frozenset({"_parameters", "_buffers", "_modules", "training"})
_OPAQUE = (nn.Module, type, types.FunctionType, types.MethodType, types.ModuleType, torch.dtype, torch.device)


def _state_names(module: nn.Module) -> list[str]:
    keys = tuple(vars(module))
    names = _NAMES.get(keys)
    if names is None:
        if len(_NAMES) > 4096:  # attribute names made on the fly: no unbounded growth
            _NAMES.clear()
        names = _NAMES[keys] = tuple(name for name in keys if name[:1] != "_" and name not in _MACHINERY)
    return list(names)


# a module's attribute names, in order -> its state names among them: modules of one class share them
_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


@dataclass(eq=False, slots=True)
class Saved:
    """One value as it was: the object itself and, for mutable ones, what it held."""

    original: Any
    held: Any = None  # a tensor's copy, a list's / dict's saved items, an object's saved attributes
    mark: Any = None  # how `original` looks while it holds `held` (see `_mark`), by identity: never `==`,
    # which a tensor answers elementwise; a small tensor has none
    names: tuple[str, ...] | None = None  # a module's state attributes: only these are kept

    def unchanged(self) -> bool:
        """Whether the original still holds what was saved (a large tensor judged without reading its data)."""
        value, mark = self.original, self.mark
        if isinstance(value, torch.Tensor):
            if mark is None:  # small, or without a version counter
                held = self.held
                return value.shape == held.shape and value.dtype == held.dtype and torch.equal(value, held)
            return _tensor_mark(value) == mark
        if isinstance(value, list):
            return len(value) == len(mark) and all(map(operator.is_, value, mark))
        items = value if isinstance(value, dict) else vars(value)  # an object or a module: its attribute dict
        keys, values = mark
        if len(items) == len(keys) and all(map(operator.is_, items, keys)) and \
                all(map(operator.is_, items.values(), values)):
            return True
        if items is not value and self._attributes_as_saved():
            self.mark = _mark(value)  # e.g. a private attribute moved: the kept ones did not
            return True
        return False

    def _attributes_as_saved(self) -> bool:
        attributes = vars(self.original)
        if self.names is not None and set(_state_names(self.original)) != set(self.names):
            return False
        return all(name in attributes and attributes[name] is item.original for name, item in self.held.items())

    def put_back(self) -> None:
        """Refill the original with what it held (its items' own contents are theirs to put back)."""
        value, held = self.original, self.held
        if isinstance(value, torch.Tensor):
            with torch.no_grad():
                if value.shape == held.shape and value.dtype == held.dtype:
                    value.copy_(held)
                else:
                    value.data = held.clone()
        elif isinstance(value, list):
            value[:] = [item.original for item in held]
        elif isinstance(value, dict):
            value.clear()
            value.update({key: item.original for key, item in held.items()})
        else:
            if self.names is not None:  # a module: attributes the forward added go
                for name in _state_names(value):
                    if name not in held:
                        delattr(value, name)
            for name, item in held.items():
                try:
                    (object.__setattr__ if self.names is not None else setattr)(value, name, item.original)
                except (AttributeError, TypeError):  # a read-only attribute: left as it is
                    pass
        self.mark = _mark(value)


def _tensor_mark(tensor: torch.Tensor) -> tuple | None:
    """None for a tensor compared by content: a small one, one without a version counter or a data pointer."""
    if tensor.numel() <= BY_CONTENT or tensor.is_inference() or tensor.layout != torch.strided:
        return None
    return (tensor._version, tensor.data_ptr(), tensor.shape, tensor.stride(), tensor.dtype, tensor.device)


def _mark(value: Any) -> Any:
    """What `Saved.unchanged` compares: a tensor's version and layout, a container's items by identity."""
    if isinstance(value, torch.Tensor):
        return _tensor_mark(value)
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return tuple(value), tuple(value.values())
    attributes = vars(value)
    return tuple(attributes), tuple(attributes.values())


def save(value: Any, depth: int = 0, seen: dict[int, Saved] | None = None) -> Saved:
    seen = {} if seen is None else seen
    saved = seen.get(id(value))
    if saved is not None:
        return saved
    saved = Saved(value)
    seen[id(value)] = saved
    if type(value) in _ATOMIC:  # most module attributes (sizes, flags, names): nothing to hold
        return saved
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


_ATOMIC = frozenset({int, float, bool, str, bytes, complex, type(None)})


def _overlaps(tensor: torch.Tensor) -> bool:
    """Whether some elements of the tensor are one memory location (a stride 0 over a dim of size > 1)."""
    return any(stride == 0 and size > 1 for stride, size in zip(tensor.stride(), tensor.shape))


@dataclass
class Snapshot:
    """What a forward pass may change in a model and its arguments, as it was when taken."""

    modules: list[tuple[nn.Module, bool]] = field(default_factory=list)  # every module and its training flag
    kept: list[Saved] = field(default_factory=list)  # every saved value that can change in place
    arguments: tuple[list, dict[str, Any]] = field(default_factory=lambda: ([], {}))
    versions: dict[int, int] = field(default_factory=dict)  # id(parameter) -> its version counter
    _bulk: "_Bulk | None" = field(default=None, repr=False, compare=False)  # `_all_unchanged`'s view of the marks
    _plain_modules: list[nn.Module] | None = field(default=None, repr=False, compare=False)  # for `in_eval`

    @classmethod
    def take(cls, model: nn.Module, args: tuple, kwargs: dict[str, Any]) -> "Snapshot":
        snapshot, seen = cls(), {}
        for module in model.modules():
            buffers = module._buffers
            seen[id(buffers)] = Saved(buffers, {name: save(buffer, 0, seen) for name, buffer in buffers.items()})
            names = _state_names(module)
            attributes = vars(module)
            seen[id(module)] = Saved(module, {name: save(attributes[name], 0, seen) for name in names},
                                     names=tuple(names))
            snapshot.modules.append((module, module.training))
        arguments = (list(args), kwargs)
        save(arguments, 0, seen)
        snapshot.arguments = arguments
        snapshot.kept = [saved for saved in seen.values() if saved.held is not None and not isinstance(saved.original, tuple)]
        for saved in snapshot.kept:
            saved.mark = _mark(saved.original)
        snapshot.versions = {id(parameter): parameter._version for module, _ in snapshot.modules
                             for parameter in module._parameters.values() if parameter is not None}
        return snapshot

    def parameters_changed(self, model: nn.Module) -> bool:
        """Whether a forward pass wrote a parameter in place (that cannot be put back): every parameter
        `model.parameters()` gives, read off the module tree directly (its generators cost more than the check)."""
        versions, seen, stack = self.versions, set(), [model]
        while stack:
            module = stack.pop()
            if id(module) in seen:
                continue
            seen.add(id(module))
            for parameter in module._parameters.values():
                if parameter is not None and versions.get(id(parameter)) != parameter._version:
                    return True
            stack.extend(child for child in module._modules.values() if child is not None)
        return False

    def changed(self) -> bool:
        """Whether anything kept differs from the snapshot (training flags included)."""
        if any(module.training != training for module, training in self.modules):
            return True
        if self._all_unchanged():
            return False
        self._bulk = None  # `unchanged` may move a mark
        return not all(saved.unchanged() for saved in self.kept)

    def restore(self, training: bool = True) -> tuple[tuple, dict[str, Any]]:
        """Put back what changed of every buffer, attribute and argument (`training`: and each module's
        training flag); returns the arguments to run with."""
        if not self._all_unchanged():
            self._bulk = None  # a put back or `unchanged` moves marks
            for saved in self.kept:
                if not saved.unchanged():
                    saved.put_back()
        if training:
            for module, flag in self.modules:
                if module.training != flag:
                    module.training = flag
        args, kwargs = self.arguments
        return tuple(args), kwargs

    def _all_unchanged(self) -> bool:
        """True when every kept container and object holds, by identity, what its mark says (so each
        `Saved.unchanged` would say so at its first test) and every tensor and list is unchanged: the
        common case, checked in a few passes over all containers at once instead of one call each.
        False means only "ask each one"."""
        bulk = self._bulk
        if bulk is None:
            bulk = self._bulk = _Bulk.of(self.kept)
        current = bulk.dicts + list(map(vars, bulk.objects))
        return list(map(len, current)) == bulk.lengths and \
            all(map(operator.is_, chain.from_iterable(current), bulk.keys)) and \
            all(map(operator.is_, chain.from_iterable(map(_values, current)), bulk.values)) and \
            all(saved.unchanged() for saved in bulk.others)

    def in_eval(self) -> bool:
        """Whether every module is in eval mode now."""
        if self._plain_modules is None:
            self._plain_modules = [module for module, _ in self.modules]
        return not any(map(_training, self._plain_modules))


_values = operator.methodcaller("values")
_training = operator.attrgetter("training")


@dataclass
class _Bulk:
    """The marks of a snapshot's kept containers and objects, flattened: their items (keys, and values) in
    kept order, so that one identity pass over all of them tells whether any changed."""

    dicts: list[dict]
    objects: list[Any]  # their attribute dicts are compared (read anew each time: `vars`)
    lengths: list[int]  # of the dicts, then of the objects' attribute dicts
    keys: tuple
    values: tuple
    others: list[Saved]  # tensors and lists: asked one by one

    @classmethod
    def of(cls, kept: list[Saved]) -> "_Bulk":
        dicts, objects, dict_marks, object_marks, others = [], [], [], [], []
        for saved in kept:
            value = saved.original
            if isinstance(value, (torch.Tensor, list)):
                others.append(saved)
            elif isinstance(value, dict):
                dicts.append(value)
                dict_marks.append(saved.mark)
            else:
                objects.append(value)
                object_marks.append(saved.mark)
        marks = dict_marks + object_marks
        return cls(dicts, objects, [len(keys) for keys, _ in marks],
                   tuple(chain.from_iterable(keys for keys, _ in marks)),
                   tuple(chain.from_iterable(values for _, values in marks)), others)


def take_snapshot(model: nn.Module, args: tuple, kwargs: dict[str, Any]) -> Snapshot | None:
    """The snapshot, or None for a model or argument this cannot copy (the witnesses then say so)."""
    try:
        return Snapshot.take(model, args, kwargs)
    except Exception:  # noqa: BLE001 - an exotic model: no witness, said in one note
        return None
