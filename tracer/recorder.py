"""The recorder: a TorchFunctionMode plus global module hooks that turn a forward pass into events.

Hooks are global state, so everything is installed in `Recorder.start` and removed in
`Recorder.stop`, which the `trace` context manager calls also when the forward raises.
The recorder never changes a value: it reads shapes, and copies (or takes statistics of)
values with the mode switched off; `ValueBook` decides which.

Every op of the user's forward passes through `__torch_function__`, so that path does the
least it can: a cached op name, one walk over the arguments, cached value metadata for the
inputs, the user's line from a per-code-object cache, and one slotted event.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any, Callable, Iterator

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
from torch.overrides import TorchFunctionMode

from .arguments import output_tensors, plain_args, plain_kwargs, tensors_in
from .events import ModuleCall, OpEvent, Recording, Source, TensorMeta
from .metadevice import HOST_COPIES, on_meta, without_copy
from .opnames import OpName, op_name
from .source import raise_location, user_location
from .valuebook import SAME_WHEN_UNCHANGED, ValueBook
from .values import DEFAULT_BUDGET_BYTES, MASK_BUDGET_BYTES, ValueKeeper

META_NOTE = "value checks skipped on the meta device"
Tensor = torch.Tensor

# Python functions whose single torch-function dispatch would hide the ops inside them;
# the recorder re-enters them with the mode on so their inner matmul/softmax are seen.
COMPOSITES = frozenset({F.multi_head_attention_forward})

LAYOUT_ATTRIBUTES = ("batch_first", "padding_idx")


def layout_attributes(module: nn.Module) -> dict[str, Any]:
    """What a module states about its inputs' layout: evidence the analysis weighs.

    `batch_first` of torch's attention and transformer modules, `padding_idx` of embeddings,
    and a HuggingFace config's `pad_token_id`; plain data, so a saved recording keeps them.
    """
    stated = {name: value for name in LAYOUT_ATTRIBUTES
              if isinstance(value := _attribute(module, name), (bool, int)) and not isinstance(value, torch.Tensor)}
    config = _attribute(module, "config")
    pad = getattr(config, "pad_token_id", None) if config is not None else None
    if isinstance(pad, int):
        stated["pad_token_id"] = pad
    return stated


def _attribute(module: nn.Module, name: str) -> Any:
    """`getattr(module, name, None)` without raising (and formatting) the AttributeError that
    a missing name costs: asked of every module a forward calls."""
    found = module.__dict__.get(name, _MISSING)
    if found is _MISSING:
        key = (type(module), name)
        on_class = _ON_CLASS.get(key)
        if on_class is None:
            on_class = _ON_CLASS[key] = any(name in klass.__dict__ for klass in type(module).__mro__)
        found = getattr(module, name, None) if on_class else None
    return found


_MISSING = object()
_ON_CLASS: dict[tuple[type, str], bool] = {}


def error_text(error: BaseException) -> str:
    """How a recording names the exception a forward pass raised: "RuntimeError: message"."""
    return f"{type(error).__name__}: {error}"


def _modules_under(module: nn.Module, path: str) -> Iterator[tuple[str, nn.Module]]:
    """`module.named_modules(remove_duplicate=False)`, as a plain recursion."""
    yield path, module
    for name, child in module._modules.items():
        if child is not None:
            yield from _modules_under(child, f"{path}.{name}" if path else name)


class Recorder(TorchFunctionMode):
    """Records the forward passes of `model` (or of every top-level module if `model` is None)."""

    def __init__(
        self,
        model: nn.Module | None = None,
        *,
        value_budget_bytes: int = DEFAULT_BUDGET_BYTES,
        mask_budget_bytes: int = MASK_BUDGET_BYTES,
        max_passes: int | None = None,
    ) -> None:
        super().__init__()
        self.model = model
        self.max_passes = max_passes
        self.recording = Recording(root_type=type(model).__name__ if model is not None else "")
        self.keeper = ValueKeeper(value_budget_bytes, mask_budget_bytes)
        self.values = ValueBook(self.keeper)
        self._names: dict[Callable, OpName] = {}
        self._stack: list[dict[str, Any]] = []
        self._calls: list[ModuleCall | None] = []
        self._paths: dict[int, str] = {}
        self._attributes: dict[int, dict[str, Any]] = {}
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
            self.recording.dropped = list(self.keeper.dropped)
            if self.keeper.dropped:
                self.recording.notes.append(
                    f"value budget reached: {len(self.keeper.dropped)} values kept as statistics only"
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

    def _note(self, text: str) -> None:
        if text not in self.recording.notes:
            self.recording.notes.append(text)

    def _learn_names(self, model: nn.Module) -> None:
        """Paths of modules and names of parameters and buffers, first name wins: what
        `named_modules`, `named_parameters` and `named_buffers` (remove_duplicate=False) give, in
        one walk."""
        paths, named = self._paths, self._named_tensors
        buffers: list[tuple[int, str]] = []
        for path, module in _modules_under(model, ""):
            paths.setdefault(id(module), path)
            prefix = f"{path}." if path else ""
            for name, tensor in module._parameters.items():
                if tensor is not None:
                    named.setdefault(id(tensor), ("param", prefix + name))
            buffers += [(id(tensor), prefix + name) for name, tensor in module._buffers.items() if tensor is not None]
        for key, name in buffers:
            named.setdefault(key, ("buffer", name))

    # ----------------------------------------------------------------- values
    def _value_of(self, tensor: torch.Tensor) -> TensorMeta:
        """The current value of `tensor`, registering it as a source if no op produced it."""
        entry = self.values.entries.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        kind, name = self._named_tensors.get(id(tensor), ("external", ""))
        meta = self.values.source(tensor)
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
                if self.values.meta(tensor) is not None:
                    continue
                meta = self.values.source(tensor)
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
        # The recorder's own bookkeeping: not recorded, and not even dispatched to the mode.
        self._paused = True
        try:
            with torch._C.DisableTorchFunction():
                self._open_call(module, args)
        finally:
            self._paused = False

    def _open_call(self, module: nn.Module, args: tuple) -> None:
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
        self._stack.append({
            "index": len(self._calls),
            "module": module,
            "path": path,
            "parent": parent["index"] if parent else None,
            "first_event": len(self.recording.events),
            "inputs": () if named_later else tuple(map(self._value_of, tensors_in(args))),
        })
        self._calls.append(None)

    def _exit_module(self, module: nn.Module, args: tuple, output: Any) -> None:
        if self._paused or not self._stack or self._stack[-1]["module"] is not module:
            return
        problem = sys.exc_info()[1] if output is None else None
        self._paused = True
        try:
            with torch._C.DisableTorchFunction():
                self._close_call(self._stack[-1], output, problem is not None)
                if problem is not None and not self._stack:
                    # Taken here, not from the `with` block: a script run under `attnscope run` may
                    # catch it and go on, or fail later for reasons that are not the forward pass's.
                    self._note_error(problem)
        finally:
            self._paused = False

    def _close_call(self, call: dict[str, Any], output: Any, raised: bool) -> None:
        self._stack.pop()
        outputs = tuple(map(self._value_of, tensors_in(output)))
        module = call["module"]
        attributes = self._attributes.get(id(module))
        if attributes is None:
            attributes = self._attributes[id(module)] = layout_attributes(module)
        self._calls[call["index"]] = ModuleCall(
            index=call["index"], path=call["path"], type_name=type(module).__name__,
            parent=call["parent"], depth=len(self._stack), first_event=call["first_event"],
            end_event=len(self.recording.events), forward_pass=self.recording.forward_passes - 1,
            inputs=call["inputs"], outputs=outputs, training=module.training, raised=raised,
            attributes=attributes,
        )
        if not self._stack:
            self.recording.outputs = list(outputs)

    def _enter_root(self, module: nn.Module, args: tuple, kwargs: dict) -> None:
        """A pre-hook on the traced model itself: only a module's own hooks see keyword arguments."""
        if len(self._stack) == 1 and self._stack[0]["module"] is module:
            self._paused = True
            try:
                with torch._C.DisableTorchFunction():
                    self._register_inputs(module, args, kwargs)
                    self._stack[0]["inputs"] = tuple(map(self._value_of, tensors_in((args, kwargs))))
            finally:
                self._paused = False

    # ----------------------------------------------------------------- the mode
    def __torch_function__(self, func: Callable, types: tuple, args: tuple = (), kwargs: dict | None = None) -> Any:
        if kwargs is None:
            kwargs = {}
        if self._paused or not self._stack:
            return func(*args, **kwargs)
        name = self._names.get(func)
        if name is None:
            name = self._names[func] = op_name(func)
        if name.query:
            if name.op == "__bool__" and args[0].is_meta:
                return self._guess_on_meta()
            return func(*args, **kwargs)
        if func in COMPOSITES:
            return self._run_composite(func, args, kwargs)
        op = name.op
        if op in HOST_COPIES and on_meta(args):
            func = self._kept_on_meta(name, args, kwargs) or func
        tensors: list[torch.Tensor] = []
        written_args = plain_args(args, tensors)
        written_kwargs = plain_kwargs(kwargs, tensors) if kwargs else {}
        entries = self.values.entries
        inputs = []
        for tensor in tensors:  # `_value_of`, its common case inline
            entry = entries.get(id(tensor))
            inputs.append(entry[1] if entry is not None and entry[0]() is tensor else self._value_of(tensor))
        inputs = tuple(inputs)
        version = tensors[0]._version if op in SAME_WHEN_UNCHANGED and tensors else None
        try:
            result = func(*args, **kwargs)
        except Exception as error:
            self._record_failure(name, written_args, written_kwargs, inputs, error_text(error))
            raise
        if isinstance(result, Tensor):
            metas, stats = self.values.output(result, op, inputs, tensors,
                                              version is not None and tensors[0]._version == version)
            metas, stats = (metas,), (stats,)
        else:
            outputs = output_tensors(result)
            if name.inplace and not outputs and tensors:
                outputs = [tensors[0]]  # __setitem__ returns None but changes its first argument
            if not outputs:
                return result
            made = [self.values.output(tensor, op, inputs, tensors, False) for tensor in outputs]
            metas, stats = tuple(meta for meta, _ in made), tuple(stats for _, stats in made)
        file, line = user_location(sys._getframe(1))
        call = self._stack[-1]
        events = self.recording.events
        events.append(OpEvent(len(events), op, name.target, written_args, written_kwargs, inputs, metas, name.inplace,
                              call["path"], call["index"], file, line, stats, None))
        return result

    def _record_failure(self, name: OpName, args: tuple, kwargs: dict, inputs: tuple[TensorMeta, ...],
                        error: str) -> None:
        """An op that raised: an event without outputs (`__torch_function__` records the rest itself)."""
        file, line = user_location(sys._getframe(2))  # the first frame above `__torch_function__`
        call = self._stack[-1]
        events = self.recording.events
        events.append(OpEvent(len(events), name.op, name.target, args, kwargs, inputs, (), name.inplace,
                              call["path"], call["index"], file, line, (), error))

    def _guess_on_meta(self) -> bool:
        """`if bad.any(): raise ...` on a meta tensor: no value exists, so take the guard as False.

        Such guards are validation almost always, and False lets the forward pass go on to
        the ops the structural checks need; the note names the line so the guess is visible.
        """
        file, line = user_location()
        self._note(f"on the meta device, bool(tensor) at {file}:{line} has no value; taken as False")
        return False

    def _kept_on_meta(self, name: OpName, args: tuple, kwargs: dict) -> Callable[..., Any] | None:
        """`.cpu()`, `.to("cpu")`, `.type(torch.ByteTensor)` of a meta tensor: the same
        conversion without the copy, which would fail for want of data (see `metadevice`)."""
        stand_in = without_copy(name.op, args, kwargs)
        if stand_in is not None:
            file, line = user_location()
            self._note(f"on the meta device, {name.op}() at {file}:{line} has no data to copy; "
                       "the value stays on meta")
        return stand_in

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
