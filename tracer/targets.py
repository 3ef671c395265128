"""Targets: turn a name on the command line into a model and the inputs of one forward pass.

The forms are fixed by CONTRACT.md ("Targets"): `path/to/file.py:NAME`, `dotted.module:NAME`
and `zoo:NAME`. Loading runs the user's code, so every way it can go wrong (missing file,
import error, wrong return form...) becomes a one-line `TargetError` naming what was
expected: the CLI prints it and exits 2, never with a traceback.

The zoo is reached only through the entry-point group `attnscope.zoo`: `tracer` never
imports `models` (CONTRACT.md "Names"). torch is imported where a target is loaded, not
when this module is, so the CLI can name targets and errors before torch has loaded.

`--device meta` builds the target inside `torch.device("meta")`: parameters and inputs
are created without storage, so a 7B configuration built the ordinary way costs no weights.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.util
import inspect
import itertools
import os
import re
import sys
import sysconfig
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from .specs import TARGET_FORMS, Spec, TargetError, file_problem, parse

if TYPE_CHECKING:
    from torch import nn

ZOO_GROUP = "attnscope.zoo"
RETURN_FORMS = "(model, args), (model, args, kwargs) or (model, kwargs_dict)"
INPUT_FORMS = "args, (args, kwargs) or kwargs_dict"

_module_ids = itertools.count()
TRACER_ROOT = os.path.dirname(os.path.abspath(__file__)) + os.sep


class TargetExit(TargetError):
    """The target's own code called `sys.exit` (or raised `SystemExit`) while it was loaded."""


class TargetMemory(TargetError):
    """An allocation failed while the target was loaded: a memory limit, or the machine's."""


@dataclass(frozen=True)
class Workload:
    """One forward pass to trace: `model(*args, **kwargs)`, labelled as the user named it.

    `options` carries what the target knows about itself, e.g. {"layout": "seq-first"}
    for a zoo model whose module sets `LAYOUT`; `notes` what loading it left out (a
    notebook's IPython lines), for the report.
    """

    label: str
    model: nn.Module
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to(self, device: str) -> "Workload":
        """The same workload with the model and every tensor input moved to `device`."""
        return replace(
            self,
            model=self.model.to(device),
            args=_move(self.args, device),
            kwargs=_move(self.kwargs, device),
        )


def _move(value: Any, device: str) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (tuple, list)):
        return type(value)(_move(item, device) for item in value)
    if isinstance(value, dict):
        return {key: _move(item, device) for key, item in value.items()}
    return value


# --------------------------------------------------------------------------- messages
def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _raised(error: BaseException) -> str:
    message = _one_line(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _a(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _describe(value: Any) -> str:
    """`a tuple of (Linear, int)`: enough to see which part of a returned form is wrong."""
    if isinstance(value, (tuple, list)):
        parts = ", ".join(type(item).__name__ for item in value)
        return f"{_a(type(value).__name__)} of ({parts})"
    return _a(type(value).__name__)


def _suggest(name: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else ""


# --------------------------------------------------------------------------- return forms
def _workload(label: str, what: str, result: Any, options: dict[str, Any] | None = None) -> Workload:
    """Check one of the three return forms of CONTRACT.md and unpack it."""
    import torch
    from torch import nn

    wrong = TargetError(f"{label}: {what} returned {_describe(result)} (expected {RETURN_FORMS})")
    if not isinstance(result, (tuple, list)) or len(result) not in (2, 3):
        raise wrong
    model, *rest = result
    if not isinstance(model, nn.Module):
        raise wrong
    if len(rest) == 1 and isinstance(rest[0], dict):
        args, kwargs = (), rest[0]
    elif len(rest) == 1:
        args, kwargs = rest[0], {}
    else:
        args, kwargs = rest
    if isinstance(args, torch.Tensor):
        args = (args,)
    if not isinstance(args, (tuple, list)) or not isinstance(kwargs, dict):
        raise wrong
    _check_inputs_fit(label, what, model, tuple(args), kwargs)
    return Workload(label, model, tuple(args), dict(kwargs), dict(options or {}))


def _check_inputs_fit(label: str, what: str, model: nn.Module, args: tuple, kwargs: dict[str, Any]) -> None:
    """Inputs the model's `forward` cannot take (none at all, one too many) are the target's mistake:
    that forward never starts, so it is no finding of the model's. A forward pre-hook may supply
    inputs, so a model with one is left to run."""
    if model._forward_pre_hooks:
        return
    try:
        signature = inspect.signature(model.forward)
    except (TypeError, ValueError):  # a forward Python cannot describe: let it run
        return
    try:
        signature.bind(*args, **kwargs)
    except TypeError as problem:
        given = "no inputs" if not args and not kwargs else \
            f"{len(args)} positional and {len(kwargs)} keyword input{'s' if len(kwargs) != 1 else ''}"
        plain = signature.replace(parameters=[parameter.replace(annotation=inspect.Parameter.empty)
                                              for parameter in signature.parameters.values()],
                                  return_annotation=inspect.Signature.empty)
        raise TargetError(f"{label}: {what} returned {given} for {type(model).__name__}.forward{plain} "
                          f"({problem}; expected {RETURN_FORMS}, the inputs being those forward takes)") from None


def _from_module_class(label: str, cls: type[nn.Module]) -> Workload:
    """An `nn.Module` subclass target: `cls()` plus its `example_inputs()`."""
    import torch

    name = cls.__name__
    model = _call(label, name, cls)
    example_inputs = getattr(model, "example_inputs", None)
    if not callable(example_inputs):
        raise TargetError(
            f"{label}: {name} is an nn.Module subclass without example_inputs() "
            f"(expected a method returning {INPUT_FORMS})"
        )
    inputs = _call(label, f"{name}.example_inputs", example_inputs)
    pair = isinstance(inputs, tuple) and len(inputs) == 2
    if pair and isinstance(inputs[0], (tuple, list, torch.Tensor)) and isinstance(inputs[1], dict):
        form = (model, *inputs)  # (args, kwargs)
    else:
        form = (model, inputs)  # args or kwargs_dict
    try:
        return _workload(label, f"{name}.example_inputs()", form)
    except TargetError:
        raise TargetError(
            f"{label}: {name}.example_inputs() returned {_describe(inputs)} (expected {INPUT_FORMS})"
        ) from None


def _call(label: str, name: str, function: Callable[[], Any]) -> Any:
    try:
        return function()
    except (Exception, SystemExit) as error:
        raise failed(error, f"{label}: calling {name}() raised {_raised(error)}") from None


def out_of_memory(text: str) -> bool:
    """Whether an error's text says an allocation failed (Python's, torch's CPU or CUDA allocator)."""
    return any(sign in text for sign in ("MemoryError", "can't allocate memory", "OutOfMemoryError", "out of memory"))


def failed(error: BaseException, message: str) -> TargetError:
    """The `TargetError` for user code that raised `error`: an exit and a failed allocation have their own kinds."""
    kind = TargetExit if isinstance(error, SystemExit) else (
        TargetMemory if isinstance(error, MemoryError) or out_of_memory(message) else TargetError)
    return kind(message, user_place(error))


def _is_users_file(filename: str) -> bool:
    return not (filename.startswith("<") or os.path.abspath(filename).startswith((*_installed_roots(), TRACER_ROOT)))


def user_place(error: BaseException) -> tuple[str, int] | None:
    """`(file, line)` of the user's line closest to where `error` was raised: a syntax error's
    own place, else the innermost frame outside attnscope and installed packages."""
    if isinstance(error, SyntaxError) and error.filename and _is_users_file(error.filename):
        return error.filename, error.lineno or 0
    place = None
    traceback = error.__traceback__
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if _is_users_file(filename):
            place = filename, traceback.tb_lineno
        traceback = traceback.tb_next
    return place


def _from_attribute(label: str, module: ModuleType, where: str, name: str) -> Workload:
    if not hasattr(module, name):
        public = [attr for attr in vars(module) if not attr.startswith("_")]
        raise TargetError(
            f"{label}: {where} has no attribute {name!r}{_suggest(name, public)} "
            f"(expected a function returning {RETURN_FORMS}, or an nn.Module subclass)"
        )
    from torch import nn

    obj = getattr(module, name)
    if isinstance(obj, type) and issubclass(obj, nn.Module):
        return _from_module_class(label, obj)
    if not callable(obj):
        raise TargetError(
            f"{label}: {name} is {_describe(obj)}, not callable "
            f"(expected a function taking no arguments that returns {RETURN_FORMS})"
        )
    return _workload(label, f"{name}()", _call(label, name, obj))


# --------------------------------------------------------------------------- the three forms
@contextmanager
def _first_on_path(directory: str) -> Iterator[None]:
    """Let the target import its sibling modules, as `python file.py` would."""
    sys.path.insert(0, directory)
    try:
        yield
    finally:
        try:
            sys.path.remove(directory)
        except ValueError:  # the target's own code took it off again
            pass


def _load_file(label: str, filename: str, name: str) -> Workload:
    missing = file_problem(Spec(label, "file", filename, name))
    if missing:
        raise TargetError(missing)
    path = Path(filename).expanduser().resolve()
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    module_name = f"_attnscope_target_{next(_module_ids)}_{stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"{label}: {filename} cannot be imported as Python (expected {TARGET_FORMS})")
    module = importlib.util.module_from_spec(spec)
    with _first_on_path(str(path.parent)):
        sys.modules[module_name] = module  # dataclasses and pickling look their module up here
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as error:
            del sys.modules[module_name]
            raise failed(error, f"{label}: importing {filename} raised {_raised(error)}") from None
        return _from_attribute(label, module, filename, name)


def _load_notebook(label: str, filename: str, name: str) -> Workload:
    """A notebook's code cells run in order in a fresh module, then NAME as for a file."""
    from .notebook import read

    missing = file_problem(Spec(label, "notebook", filename, name))
    if missing:
        raise TargetError(missing)
    try:
        notebook = read(filename)
    except TargetError as problem:
        raise TargetError(f"{label}: {problem}") from None
    module = ModuleType(f"_attnscope_notebook_{next(_module_ids)}")
    with _first_on_path(os.path.dirname(notebook.path)):
        sys.modules[module.__name__] = module  # dataclasses and pickling look their module up here
        try:
            notebook.run(module.__dict__)
        except (Exception, SystemExit) as error:
            del sys.modules[module.__name__]
            raise failed(error, f"{label}: running {filename}{_cell_of(error)} raised {_raised(error)}") from None
        workload = _from_attribute(label, module, filename, name)
    note = notebook.note()
    return replace(workload, notes=(note,)) if note else workload


def _cell_of(error: BaseException) -> str:
    """` in cell 3, line 4`: where in a notebook `error` was raised; "" if elsewhere or a syntax
    error, whose own text says where."""
    from .notebook import split_cell

    place = None if isinstance(error, SyntaxError) else user_place(error)
    cell = split_cell(place[0])[1] if place else None
    return f" in cell {cell}, line {place[1]}" if place and cell is not None else ""


def _load_dotted(label: str, dotted: str, name: str) -> Workload:
    """Like `python -m`, the current directory comes first, so local modules are found."""
    with _first_on_path(os.getcwd()):
        try:
            module = importlib.import_module(dotted)
        except (Exception, SystemExit) as error:
            raise failed(error, f"{label}: importing module {dotted} raised {_raised(error)}") from None
        return _from_attribute(label, module, f"module {dotted}", name)


def zoo_entries() -> dict[str, Any]:
    """Every zoo model by name, merged over the catalogues registered under `attnscope.zoo`.

    An entry has at least `.build` (a function returning one of the target forms) and
    `.module`; `models.zoo.ZooModel` adds `.summary` and `.expected` for listings.
    """
    merged: dict[str, Any] = {}
    for point in entry_points(group=ZOO_GROUP):
        try:
            merged.update(point.load()())
        except Exception as error:
            raise TargetError(f"zoo catalogue {point.name} ({point.value}) failed to load: {_raised(error)}") from None
    return dict(sorted(merged.items()))


def _zoo_module(name: str) -> ModuleType | None:
    """The zoo model's own module, imported alone, where a catalogue is a package of one
    module per model with its `build()` (models/zoo's convention); None otherwise.

    One module instead of the whole catalogue: a single `check zoo:NAME` starts faster.
    """
    if not name.isidentifier() or name.startswith("_"):
        return None
    for point in entry_points(group=ZOO_GROUP):
        qualified = f"{point.value.partition(':')[0]}.{name}"
        try:
            if importlib.util.find_spec(qualified) is None:
                continue
            module = importlib.import_module(qualified)
        except Exception:  # noqa: BLE001 - the catalogue itself reports a module that fails
            return None
        if callable(getattr(module, "build", None)):
            return module
    return None


def _load_zoo(label: str, name: str) -> Workload:
    module = _zoo_module(name)
    if module is not None:
        build = module.build
    else:
        entries = zoo_entries()
        entry = entries.get(name)
        if entry is None:
            raise TargetError(
                f"{label}: no zoo model named {name!r}{_suggest(name, entries)} (`attnscope zoo` lists them)"
            )
        build = entry.build
    return _workload(label, f"zoo model {name}'s build()", _call(label, f"{name}.build", build), {})


def _load(spec: str) -> Workload:
    parsed = parse(spec)
    if parsed.kind == "zoo":
        return _load_zoo(spec, parsed.where)
    if parsed.kind == "file":
        return _load_file(spec, parsed.where, parsed.name)
    if parsed.kind == "notebook":
        return _load_notebook(spec, parsed.where, parsed.name)
    if parsed.kind == "dotted":
        return _load_dotted(spec, parsed.where, parsed.name)
    raise TargetError(f"{spec}: a saved recording is read, not built (expected {TARGET_FORMS})")


def _built(spec: str) -> Workload:
    """The workload, with the user's lines that made each input tensor (`tracer.origins`) among its
    options, so a finding on an input built by a helper of `build()` can name that helper's line."""
    from .origins import Origins

    with Origins() as origins:
        workload = _load(spec)
    found = origins.of_inputs(workload.args, workload.kwargs)
    return replace(workload, options={**workload.options, "input_origins": found}) if found else workload


META_FAILURE = re.compile(r"meta tensor|'meta'|\bMeta\b|device=meta|no values? on the meta device")
META_HINT = (
    "this build cannot run on the meta device, where tensors have no values and no storage "
    "(it reads a value, loads weights or copies to the CPU): check it without --device meta"
)


def load_target(spec: str, device: str | None = None) -> Workload:
    """Build the model and inputs that `spec` names; raise `TargetError` if it cannot.

    With `device`, the build itself runs inside `torch.device(device)` and the result is
    moved there, so on "meta" no weight is ever allocated.
    """
    if device is None:
        return _built(spec)
    import torch

    try:
        with torch.device(device):
            workload = _built(spec)
    except TargetError as problem:
        if device == "meta" and META_FAILURE.search(str(problem).partition(" raised ")[2]):
            raise type(problem)(f"{problem}; {META_HINT}", problem.place) from None
        raise
    try:
        return workload.to(device)
    except Exception as error:
        raise TargetError(f"{spec}: moving the model to {device} raised {_raised(error)}") from None


# --------------------------------------------------------------------------- isolation
@functools.cache
def _installed_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    return tuple(os.path.abspath(paths[key]) + os.sep for key in ("stdlib", "platstdlib", "purelib", "platlib"))


def _is_users(name: str, module: ModuleType | None, known_packages: set[str]) -> bool:
    """A module the target brought in: a new top-level package that is not installed."""
    filename = getattr(module, "__file__", None)
    if not filename or name.partition(".")[0] in known_packages:
        return False
    return not os.path.abspath(filename).startswith(_installed_roots())


@contextmanager
def isolated() -> Iterator[None]:
    """Load and trace one target as if it were the only one.

    Several submissions often share module names (`model.py`, `attention.py`), so the
    user's modules imported inside are dropped on exit, while installed libraries and
    already imported packages (torch, tracer) stay. `sys.path` and the default dtype are
    restored, and the random generator is seeded to 0 inside and restored after, so a
    target gives the same report alone or among others.
    """
    import torch

    modules = set(sys.modules)
    known_packages = {name.partition(".")[0] for name in modules}
    path = list(sys.path)
    dtype = torch.get_default_dtype()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        try:
            yield
        finally:
            for name in set(sys.modules) - modules:
                if _is_users(name, sys.modules.get(name), known_packages):
                    del sys.modules[name]
            sys.path[:] = path
            torch.set_default_dtype(dtype)
