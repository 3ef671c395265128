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
from typing import Any, Callable

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
from torch.overrides import TorchFunctionMode

from .arguments import output_tensors, plain_args, plain_kwargs, tensor_list, tensors_in
from .events import ModuleCall, OpEvent, Recording, Source, TensorMeta
from .metadevice import HOST_COPIES, on_meta, without_copy
from .modulefacts import layout_attributes, learn_names
from .opnames import OpName, op_name
from .source import raise_location, user_location
from .valuebook import SAME_WHEN_UNCHANGED, ValueBook
from .values import DEFAULT_BUDGET_BYTES, MASK_BUDGET_BYTES, ValueKeeper

TRANSFORM_NOTE = ("ops run under a torch.func transform (vmap, grad, jacrev) are not recorded: the checks and "
                  "witnesses do not see them; their results are read as inputs where they come out")
_transform_level = torch._C._functorch.maybe_current_level
NESTED_NOTE = ("ops on nested (jagged) tensors are not recorded: their sizes differ per sample, and the checks and "
               "witnesses do not see them; what comes out of them as plain tensors is read as inputs")


def _plain_tensors(tensors) -> list[Tensor]:
    """The tensors the recording can describe: a nested (jagged) tensor has no plain shape."""
    return [tensor for tensor in tensors if not tensor.is_nested]
Tensor = torch.Tensor

# Python functions whose single torch-function dispatch would hide the ops inside them;
# the recorder re-enters them with the mode on so their inner matmul/softmax are seen.
COMPOSITES = frozenset({F.multi_head_attention_forward})

# What `__torch_function__` must know of a function beyond its name, as bits.
QUERY, COMPOSITE, HOST_COPY, WRITES_IF_TRAINING = 1, 2, 4, 8


# func -> (its name, its special bits), for every function any recorder has seen
_KNOWN: dict[Callable, tuple[OpName, int]] = {}


def _classify(func: Callable) -> tuple[OpName, int]:
    name = op_name(func)
    special = (QUERY if name.query else 0) | (COMPOSITE if func in COMPOSITES else 0)
    special |= (HOST_COPY if name.op in HOST_COPIES else 0) | (WRITES_IF_TRAINING if name.op in SAME_WHEN_UNCHANGED else 0)
    return name, special


def error_text(error: BaseException) -> str:
    """How a recording names the exception a forward pass raised: "RuntimeError: message"."""
    return f"{type(error).__name__}: {error}"


class Recorder(TorchFunctionMode):
    """Records the forward passes of `model` (or of every top-level module if `model` is None)."""

    def __init__(
        self,
        model: nn.Module | None = None,
        *,
        value_budget_bytes: int = DEFAULT_BUDGET_BYTES,
        mask_budget_bytes: int | None = None,
        max_passes: int | None = None,
        keep_every_value: bool = False,
    ) -> None:
        """`mask_budget_bytes`: for masks and what builds them; by default 1 GiB, or the value
        budget where that is larger (so raising the value budget never keeps fewer masks).
        `keep_every_value`: copy every value under the budget, not only those the checks read."""
        super().__init__()
        if mask_budget_bytes is None:
            mask_budget_bytes = max(MASK_BUDGET_BYTES, value_budget_bytes)
        self.model = model
        self.max_passes = max_passes
        self.untraced_passes = 0  # top-level passes that ran after `max_passes` were recorded
        self.recording = Recording(root_type=type(model).__name__ if model is not None else "")
        self.keeper = ValueKeeper(value_budget_bytes, mask_budget_bytes, everything=keep_every_value)
        self.values = ValueBook(self.keeper)
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
            learn_names(self.model, self._paths, self._named_tensors)
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

    def _note(self, text: str) -> None:
        if text not in self.recording.notes:
            self.recording.notes.append(text)

    # ----------------------------------------------------------------- values
    def _value_of(self, tensor: torch.Tensor) -> TensorMeta:
        """The current value of `tensor`, registering it as a source if no op produced it."""
        entry = self.values.entries.get(id(tensor))
        if entry is not None and entry[0]() is tensor:
            return entry[1]
        kind, name = self._named_tensors.get(id(tensor), ("external", ""))
        meta = self.values.source(tensor, learned=kind == "param")
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
            found = _plain_tensors(tensors_in(value))
            for position, tensor in enumerate(found):
                if self.values.meta(tensor) is not None:
                    continue
                meta = self.values.source(tensor)
                label = name if len(found) == 1 else f"{name}[{position}]"
                self.recording.sources[meta.vid] = Source("input", label, meta)

    # ----------------------------------------------------------------- module hooks
    def _is_new_pass(self, module: nn.Module) -> bool:
        """Whether `module`, called at top level, starts a pass to record; one past
        `max_passes` is counted as untraced instead."""
        if self.model is not None and module is not self.model:
            return False
        if self.max_passes is None or self.recording.forward_passes < self.max_passes:
            return True
        self.untraced_passes += 1
        return False

    def _enter_module(self, module: nn.Module, args: tuple) -> None:
        if self._paused or (self._stack and _transform_level() is not None):  # a module run under vmap: unseen
            return
        if not self._stack:
            if not self._is_new_pass(module):
                return
            self.recording.forward_passes += 1
            if self.model is None:
                learn_names(module, self._paths, self._named_tensors)
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
            "inputs": () if named_later else tuple(map(self._value_of, _plain_tensors(tensor_list(args)))),
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
        outputs = tuple(map(self._value_of, _plain_tensors(tensor_list(output))))
        module = call["module"]
        attributes = self._attributes.get(id(module))
        if attributes is None:
            attributes = self._attributes[id(module)] = layout_attributes(module)
        self._calls[call["index"]] = ModuleCall(  # index, path, type_name, parent, depth, first_event,
            # end_event, forward_pass, inputs, outputs, training, raised, attributes
            call["index"], call["path"], type(module).__name__, call["parent"], len(self._stack),
            call["first_event"], len(self.recording.events), self.recording.forward_passes - 1,
            call["inputs"], outputs, module.training, raised, attributes,
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
                    self._stack[0]["inputs"] = tuple(map(self._value_of, _plain_tensors(tensors_in((args, kwargs)))))
            finally:
                self._paused = False

    # ----------------------------------------------------------------- the mode
    def __torch_function__(self, func: Callable, types: tuple, args: tuple = (), kwargs: dict | None = None) -> Any:
        if kwargs is None:
            kwargs = {}
        if self._paused or not self._stack:
            return func(*args, **kwargs)
        if _transform_level() is not None:  # inside torch.func.vmap / grad: values are batched per call,
            self._note(TRANSFORM_NOTE)  # and reading them (statistics, copies) is data-dependent control flow
            return func(*args, **kwargs)
        known = _KNOWN.get(func)
        if known is None:
            known = _KNOWN[func] = _classify(func)
        name, special = known
        if special:  # the few kinds of call that need more than the common path
            if special & QUERY:
                if name.op == "__bool__" and args[0].is_meta:
                    return self._guess_on_meta()
                return func(*args, **kwargs)
            if special & COMPOSITE:
                return self._run_composite(func, args, kwargs)
            if special & HOST_COPY and on_meta(args):
                func = self._kept_on_meta(name, args, kwargs) or func
        op = name.op
        tensors: list[torch.Tensor] = []
        written_args = plain_args(args, tensors)
        written_kwargs = plain_kwargs(kwargs, tensors) if kwargs else {}
        if any(tensor.is_nested for tensor in tensors):
            self._note(NESTED_NOTE)
            return func(*args, **kwargs)
        entries = self.values.entries
        inputs = []
        for tensor in tensors:  # `_value_of`, its common case inline
            entry = entries.get(id(tensor))
            inputs.append(entry[1] if entry is not None and entry[0]() is tensor else self._value_of(tensor))
        inputs = tuple(inputs)
        version = tensors[0]._version if special & WRITES_IF_TRAINING and tensors else None
        try:
            result = func(*args, **kwargs)
        except Exception as error:
            self._record_failure(name, written_args, written_kwargs, inputs, error_text(error))
            raise
        if isinstance(result, Tensor) and result.is_nested:
            self._note(NESTED_NOTE)
            return result
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
