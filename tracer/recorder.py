"""The recorder: a TorchFunctionMode plus global module hooks that turn a forward pass into events.

Hooks are global state, so everything is installed in `Recorder.start` and removed in
`Recorder.stop`, which the `trace` context manager calls also when the forward raises.
The recorder never changes a value: it reads shapes, computes statistics on detached
tensors with the mode switched off, and copies the few values later stages need.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import weakref
from collections.abc import Mapping
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
from torch.overrides import TorchFunctionMode

from .events import TENSOR_SLOT, ModuleCall, OpEvent, Recording, Source, TensorMeta
from .opnames import op_name
from .source import raise_location, user_location
from .values import DEFAULT_BUDGET_BYTES, ValueKeeper, value_stats

META_NOTE = "value checks skipped on the meta device"

# Python functions whose single torch-function dispatch would hide the ops inside them;
# the recorder re-enters them with the mode on so their inner matmul/softmax are seen.
COMPOSITES = frozenset({F.multi_head_attention_forward})


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
    if isinstance(value, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
        return str(value)
    return {"object": type(value).__name__}


LAYOUT_ATTRIBUTES = ("batch_first", "padding_idx")


def layout_attributes(module: nn.Module) -> dict[str, Any]:
    """What a module states about its inputs' layout: evidence the analysis weighs.

    `batch_first` of torch's attention and transformer modules, `padding_idx` of embeddings,
    and a HuggingFace config's `pad_token_id`; plain data, so a saved recording keeps them.
    """
    stated = {name: value for name in LAYOUT_ATTRIBUTES
              if isinstance(value := getattr(module, name, None), (bool, int)) and not isinstance(value, torch.Tensor)}
    pad = getattr(getattr(module, "config", None), "pad_token_id", None)
    if isinstance(pad, int):
        stated["pad_token_id"] = pad
    return stated


def error_text(error: BaseException) -> str:
    """How a recording names the exception a forward pass raised: "RuntimeError: message"."""
    return f"{type(error).__name__}: {error}"


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


_DTYPE_NAMES = {dtype: str(dtype).removeprefix("torch.") for dtype in
                (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.int32, torch.bool)}


def _meta(tensor: torch.Tensor, vid: int) -> TensorMeta:
    dtype = tensor.dtype
    name = _DTYPE_NAMES.get(dtype) or str(dtype).removeprefix("torch.")
    device = tensor.device
    return TensorMeta(vid, tuple(tensor.shape), name, "cpu" if device.type == "cpu" else str(device))


class ValueIds:
    """tensor -> vid of its current value, holding the tensors only weakly.

    Keyed by `id()` with a weak reference to check identity: a lookup creates nothing, which
    matters at several lookups per recorded op (torch's WeakIdKeyDictionary builds a
    reference object for every one).
    """

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref, int]] = {}

    def get(self, tensor: torch.Tensor) -> int | None:
        entry = self._entries.get(id(tensor))
        return entry[1] if entry is not None and entry[0]() is tensor else None

    def set(self, tensor: torch.Tensor, vid: int) -> None:
        key, entries = id(tensor), self._entries
        entry = entries.get(key)
        if entry is not None and entry[0]() is tensor:
            entries[key] = (entry[0], vid)
            return

        def forget(dead: weakref.ref, key: int = key) -> None:
            current = entries.get(key)
            if current is not None and current[0] is dead:
                del entries[key]

        entries[key] = (weakref.ref(tensor, forget), vid)


class Recorder(TorchFunctionMode):
    """Records the forward passes of `model` (or of every top-level module if `model` is None)."""

    def __init__(
        self,
        model: nn.Module | None = None,
        *,
        value_budget_bytes: int = DEFAULT_BUDGET_BYTES,
        max_passes: int | None = None,
        statistics: bool = True,
    ) -> None:
        super().__init__()
        self.model = model
        self.max_passes = max_passes
        self.statistics = statistics
        self.recording = Recording(root_type=type(model).__name__ if model is not None else "")
        self.keeper = ValueKeeper(value_budget_bytes)
        self._vids = ValueIds()
        self._next_vid = 0
        self._stack: list[dict[str, Any]] = []
        self._calls: list[ModuleCall | None] = []
        self._paths: dict[int, str] = {}
        self._named_tensors: dict[int, tuple[str, str]] = {}
        self._paused = False
        self._handles: list[Any] = []
        self._fastpath: bool | None = None

    # ----------------------------------------------------------------- install / remove
    def start(self) -> None:
        if self.model is not None:
            self._learn_names(self.model)
        self._fastpath = torch.backends.mha.get_fastpath_enabled()
        torch.backends.mha.set_fastpath_enabled(False)
        self._handles = [
            register_module_forward_pre_hook(self._enter_module),
            register_module_forward_hook(self._exit_module, always_call=True),
        ]
        if self.model is not None:
            self._handles.append(self.model.register_forward_pre_hook(self._enter_root, with_kwargs=True))
        self.__enter__()

    def stop(self, error: BaseException | None = None) -> None:
        try:
            self.__exit__(None, None, None)
        finally:
            for handle in self._handles:
                handle.remove()
            self._handles = []
            if self._fastpath is not None:
                torch.backends.mha.set_fastpath_enabled(self._fastpath)
            while self._stack:  # only left open if a hook itself failed
                self._close_call(self._stack[-1], None, raised=True)
            self.recording.module_calls = [call for call in self._calls if call is not None]
            self.recording.values = self.keeper.kept
            if self.keeper.skipped:
                self.recording.notes.append(
                    f"value budget reached: {self.keeper.skipped} values kept as statistics only"
                )
            self._note_device()
            if error is not None:
                self._note_error(error)

    def _note_error(self, error: BaseException) -> None:
        """Keep the first error: the failing forward pass's, taken when its root call closes."""
        if self.recording.error is None:
            self.recording.error = error_text(error)
            self.recording.error_file, self.recording.error_line = raise_location(error.__traceback__)

    def _note_device(self) -> None:
        """The device the forward ran on; on meta no values exist, so the report must say what it skipped."""
        first = next(iter(self.recording.sources.values()), None)
        if first is not None:
            self.recording.device = first.meta.device
        if self.recording.device == "meta" and META_NOTE not in self.recording.notes:
            self.recording.notes.append(META_NOTE)

    def _learn_names(self, model: nn.Module) -> None:
        for path, module in model.named_modules(remove_duplicate=False):
            self._paths.setdefault(id(module), path)
        for name, tensor in model.named_parameters(remove_duplicate=False):
            self._named_tensors.setdefault(id(tensor), ("param", name))
        for name, tensor in model.named_buffers(remove_duplicate=False):
            self._named_tensors.setdefault(id(tensor), ("buffer", name))

    @contextmanager
    def _pause(self) -> Iterator[None]:
        """The recorder's own bookkeeping in hooks: not recorded, and not even dispatched to the mode."""
        self._paused, previous = True, self._paused
        try:
            with torch._C.DisableTorchFunction():
                yield
        finally:
            self._paused = previous

    # ----------------------------------------------------------------- value ids
    def _new_value(self, tensor: torch.Tensor, op: str) -> TensorMeta:
        vid = self._next_vid
        self._next_vid += 1
        self._vids.set(tensor, vid)
        self.keeper.offer(vid, op, tensor)
        return _meta(tensor, vid)

    def _value_of(self, tensor: torch.Tensor) -> TensorMeta:
        """The current value of `tensor`, registering it as a source if no op produced it."""
        vid = self._vids.get(tensor)
        if vid is not None:
            return _meta(tensor, vid)
        kind, name = self._named_tensors.get(id(tensor), ("external", ""))
        meta = self._new_value(tensor, "source")
        self.recording.sources[meta.vid] = Source(kind, name or f"tensor_{meta.vid}", meta)
        return meta

    def _register_inputs(self, module: nn.Module, args: tuple, kwargs: dict) -> None:
        """Name the forward pass's tensor arguments after the parameters of `module.forward`."""
        try:
            signature = inspect.signature(module.forward)
            bound = dict(signature.bind_partial(*args, **kwargs).arguments)
        except (TypeError, ValueError):
            bound = {f"args[{i}]": arg for i, arg in enumerate(args)} | kwargs
        else:
            for parameter in signature.parameters.values():  # `**kwargs`: name each by its keyword
                if parameter.kind is inspect.Parameter.VAR_KEYWORD and parameter.name in bound:
                    bound |= bound.pop(parameter.name)
        for name, value in bound.items():
            found = list(tensors_in(value))
            for position, tensor in enumerate(found):
                if self._vids.get(tensor) is not None:
                    continue
                meta = self._new_value(tensor, "input")
                label = name if len(found) == 1 else f"{name}[{position}]"
                self.recording.sources[meta.vid] = Source("input", label, meta)

    # ----------------------------------------------------------------- module hooks
    def _is_new_pass(self, module: nn.Module) -> bool:
        if self.model is not None and module is not self.model:
            return False
        return self.max_passes is None or self.recording.forward_passes < self.max_passes

    def _enter_module(self, module: nn.Module, args: tuple) -> None:
        if self._paused:
            return
        if not self._stack:
            if not self._is_new_pass(module):
                return
            self.recording.forward_passes += 1
            if self.model is None:
                self._learn_names(module)
                self.recording.root_type = type(module).__name__
        with self._pause():
            parent = self._stack[-1] if self._stack else None
            if parent is None:
                path = ""
            else:
                path = self._paths.get(id(module))
                if path is None:
                    path = f"{parent['path']}.{type(module).__name__}".lstrip(".")
                    self._paths[id(module)] = path
            if parent is None and self.model is None:
                self._register_inputs(module, args, {})
            # The traced model's own inputs are taken by `_enter_root`, which sees keywords too.
            named_later = parent is None and self.model is not None
            call = {
                "index": len(self._calls),
                "module": module,
                "path": path,
                "parent": parent["index"] if parent else None,
                "first_event": len(self.recording.events),
                "inputs": () if named_later else tuple(self._value_of(t) for t in tensors_in(args)),
            }
            self._calls.append(None)
            self._stack.append(call)

    def _exit_module(self, module: nn.Module, args: tuple, output: Any) -> None:
        if self._paused or not self._stack or self._stack[-1]["module"] is not module:
            return
        problem = sys.exc_info()[1] if output is None else None
        with self._pause():
            self._close_call(self._stack[-1], output, problem is not None)
            if problem is not None and not self._stack:
                # Taken here, not from the `with` block: a script run under `attnscope run` may
                # catch it and go on, or fail later for reasons that are not the forward pass's.
                self._note_error(problem)

    def _close_call(self, call: dict[str, Any], output: Any, raised: bool) -> None:
        self._stack.pop()
        outputs = tuple(self._value_of(t) for t in tensors_in(output))
        module = call["module"]
        self._calls[call["index"]] = ModuleCall(
            index=call["index"], path=call["path"], type_name=type(module).__name__,
            parent=call["parent"], depth=len(self._stack), first_event=call["first_event"],
            end_event=len(self.recording.events), forward_pass=self.recording.forward_passes - 1,
            inputs=call["inputs"], outputs=outputs, training=module.training, raised=raised,
            attributes=layout_attributes(module),
        )
        if not self._stack:
            self.recording.outputs = list(outputs)

    def _enter_root(self, module: nn.Module, args: tuple, kwargs: dict) -> None:
        """A pre-hook on the traced model itself: only a module's own hooks see keyword arguments."""
        if len(self._stack) == 1 and self._stack[0]["module"] is module:
            with self._pause():
                self._register_inputs(module, args, kwargs)
                self._stack[0]["inputs"] = tuple(self._value_of(t) for t in tensors_in((args, kwargs)))

    # ----------------------------------------------------------------- the mode
    def __torch_function__(self, func: Callable, types: tuple, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        if self._paused or not self._stack:
            return func(*args, **kwargs)
        name = op_name(func)
        if name.query:
            if name.op == "__bool__" and args[0].device.type == "meta":
                return self._guess_on_meta()
            return func(*args, **kwargs)
        if func in COMPOSITES:
            return self._run_composite(func, args, kwargs)
        tensors: list[torch.Tensor] = []
        plain_args = tuple(plain(list(args), tensors))
        plain_kwargs = plain(kwargs, tensors)
        inputs = tuple(self._value_of(t) for t in tensors)
        try:
            result = func(*args, **kwargs)
        except Exception as error:
            self._record(name, plain_args, plain_kwargs, inputs, [], error=error_text(error))
            raise
        outputs = list(tensors_in(result))
        if name.inplace and not outputs and tensors:
            outputs = [tensors[0]]  # __setitem__ returns None but changes its first argument
        if outputs:
            self._record(name, plain_args, plain_kwargs, inputs, outputs)
        return result

    def _guess_on_meta(self) -> bool:
        """`if bad.any(): raise ...` on a meta tensor: no value exists, so take the guard as False.

        Such guards are validation almost always, and False lets the forward pass go on to
        the ops the structural checks need; the note names the line so the guess is visible.
        """
        file, line = user_location()
        note = f"on the meta device, bool(tensor) at {file}:{line} has no value; taken as False"
        if note not in self.recording.notes:
            self.recording.notes.append(note)
        return False

    def _record(self, name, args, kwargs, inputs, outputs: list[torch.Tensor], error: str | None = None) -> None:
        file, line = user_location()
        call = self._stack[-1]
        metas = tuple(self._new_value(tensor, name.op) for tensor in outputs)
        kept = self.keeper.kept
        stats = tuple(  # a kept value's statistics are computed from the copy, only if asked for
            None if meta.vid in kept else value_stats(tensor) for meta, tensor in zip(metas, outputs)
        ) if self.statistics else ()
        self.recording.events.append(
            OpEvent(
                index=len(self.recording.events), op=name.op, target=name.target, args=args,
                kwargs=kwargs, inputs=inputs, outputs=metas, inplace=name.inplace,
                module=call["path"], module_call=call["index"], file=file, line=line,
                stats=stats, error=error,
            )
        )

    def _run_composite(self, func: Callable, args: tuple, kwargs: dict) -> Any:
        """Run a Python composite with the mode on, skipping only its own dispatch check."""
        namespace = sys.modules[func.__module__]
        original = namespace.has_torch_function

        def skip_once(*_: Any) -> bool:
            namespace.has_torch_function = original
            return False

        namespace.has_torch_function = skip_once
        try:
            with self:
                return func(*args, **kwargs)
        finally:
            namespace.has_torch_function = original
