"""Where a value was built: the user-code lines behind a faulty operand, for findings' `related` notes.

A finding stands where the wrong value is *used* (the masked_fill line); its notes say where
that value was *built*: the lines of the ops that made it, nearest first, and for a buffer
or parameter, where the module registered it (usually in `__init__`, which ran before
tracing and so left no events). Registration sites are found by reading the module class's
own source: `self.register_buffer("mask", ...)` or `self.mask = ...`.
"""

from __future__ import annotations

import os

import ast
from typing import TYPE_CHECKING, Iterable

from ..findings import Related
from .sourcefile import parsed

# Ops that only carry a value on (reshape, convert, cut, negate): the line that made the values comes first.
CARRIERS = frozenset({
    "unsqueeze", "squeeze", "view", "reshape", "expand", "expand_as", "contiguous", "clone", "detach", "to",
    "type", "type_as", "float", "bool", "long", "int", "half", "bfloat16", "getitem", "transpose", "permute",
    "flatten", "unflatten", "repeat", "repeat_interleave", "logical_not", "bitwise_not",
})

WALK = 40  # values followed back from a faulty operand to the lines that built it
WALK_TO_USER = 400  # ... and how far while no user line is found yet (a mask built inside a library)

if TYPE_CHECKING:
    from ..analysis import Analysis


def _tree(filename: str) -> ast.Module | None:
    source = parsed(filename)
    return source.tree if source is not None else None


def enclosing_function(filename: str, line: int) -> str:
    """The qualified name of the innermost function or class body holding `line`, or ""."""
    source = parsed(filename)
    if source is None:
        return ""
    key = ("enclosing", line)
    if key not in source.memo:
        source.memo[key] = _enclosing(source.tree, line)
    return source.memo[key]


def _enclosing(tree: ast.Module, line: int) -> str:
    names: list[str] = []

    def visit(node: ast.AST, path: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                end = getattr(child, "end_lineno", child.lineno)
                if child.lineno <= line <= end:
                    here = path + [child.name]
                    names[:] = here
                    visit(child, here)

    visit(tree, [])
    return ".".join(names)


def _place(filename: str, line: int, role: str) -> Related:
    return Related(filename, line, enclosing_function(filename, line), role)


def construction(analysis: "Analysis", vid: int, role: str, used_at: int | None = None,
                 limit: int = 2, prefer: frozenset[tuple[str, int]] = frozenset()) -> tuple[Related, ...]:
    """The user lines that built value `vid`, nearest first: the ops that made it, and where a
    buffer or parameter it was made from was registered. `used_at`: the event of the finding,
    whose own line is not a note. `prefer`: lines known to carry the fault (the piece of a mask
    that reads ahead), walked to and named before the others."""
    seen: set[tuple[str, int]] = set()
    found: list[tuple[bool, int, Related]] = []
    if used_at is not None:
        event = analysis.recording.events[used_at]
        seen.add((event.file, event.line))
    frontier, visited = [vid], set()
    # walk until `limit` lines that made values (not only reshaped them) are found, a bounded walk
    def enough() -> bool:
        made = sum(not carried for carried, *_ in found)
        named = {(site.file, site.line) for *_, site in found}
        return made >= limit and prefer <= named

    while frontier and not enough() and \
            len(visited) < (WALK if any(not carried for carried, *_ in found) else WALK_TO_USER):
        current = frontier.pop(0)
        if current in visited:
            continue
        visited.add(current)
        event = analysis.flow.made_by(current) if analysis.flow is not None else None
        if event is None:
            source = analysis.recording.sources.get(current)
            sites = () if source is None else (built_before(analysis, source) if source.kind == "input"
                                               else registration(analysis, source.kind, source.name))
            for site in sites:  # build()'s lines for an input come after the forward's own
                if (site.file, site.line) not in seen:
                    seen.add((site.file, site.line))
                    found.append((source.kind == "input", len(found), site))
            continue
        place = (event.file, event.line)
        if event.file and place not in seen:
            seen.add(place)
            # an installed library's line is named after the user's own: the walk goes on to the user's code
            found.append((event.op in CARRIERS or installed(event.file), len(found), _place(event.file, event.line, role)))
        elif event.op not in CARRIERS:  # a line first reached through a reshape also computes: it made values
            found = [(installed(site.file), order, site) if (site.file, site.line) == place else (carried, order, site)
                     for carried, order, site in found]
        frontier.extend(meta.vid for meta in event.inputs)
    # the line that made the values first, the lines that only reshaped or converted them after, and
    # the user's own conversion (`attention_mask=padding_mask.long()`) before an installed library's lines
    ordered = sorted(found, key=lambda item: ((item[2].file, item[2].line) not in prefer, item[0],
                                              installed(item[2].file), item[1]))
    return tuple(place for *_, place in ordered[:limit])


def laid_out(analysis: "Analysis", vid: int, role: str, used_at: int | None = None) -> tuple[Related, ...]:
    """The user line that gave a value its broadcast dims (`mask[:, None, :, None]`, an `unsqueeze`,
    a `view` to more dims), walking back through reshapes and conversions: where a mask was laid
    along the axes it meets, which is what a mask-axis mistake gets wrong."""
    flow, frontier, seen = analysis.flow, [vid], set()
    while frontier and len(seen) < WALK and flow is not None:
        current = frontier.pop(0)
        event = flow.made_by(current)
        if current in seen or event is None or not event.inputs or not event.outputs:
            seen.add(current)
            continue
        seen.add(current)
        if event.op in CARRIERS and len(event.outputs[0].shape) > len(event.inputs[0].shape) and event.file and \
                not installed(event.file) and event.index != used_at:
            return (_place(event.file, event.line, role),)
        frontier.extend(meta.vid for meta in event.inputs)
    return ()


def built_before(analysis: "Analysis", source, every: bool = False) -> list[Related]:
    """Where the user's build() made an input (`tracer.origins`): a mask from a helper it called. The
    nearest lines (`every`: all the lines kept, for a check that looks for one call among them)."""
    lines = analysis.recording.input_origins.get(source.name, ())
    return [_place(file, line, f"the input {source.name!r} built here") for file, line in lines[:None if every else 2]]


def installed(filename: str) -> bool:
    """A file of an installed package (transformers' mask helpers), not the user's own code."""
    return f"{os.sep}site-packages{os.sep}" in filename or f"{os.sep}dist-packages{os.sep}" in filename


def registration(analysis: "Analysis", kind: str, name: str) -> list[Related]:
    """Where the module that owns buffer or parameter `name` registered it (and, when it registered
    a local variable, where that was built), read from the module class's source."""
    if kind not in ("buffer", "param") or not name:
        return []
    path, _, attribute = name.rpartition(".")
    type_name = next((call.type_name for call in analysis.recording.module_calls if call.path == path), None)
    if type_name is None:
        return []
    own = {event.file for event in analysis.recording.events if event.module == path and event.file}
    others = {event.file for event in analysis.recording.events if event.file} - own
    what = "buffer" if kind == "buffer" else "parameter"
    for filename in sorted(own) + sorted(others):
        lines = _registration_lines(filename, type_name, attribute)
        if lines:  # the line that built the value first, then where it became the buffer
            built = [_place(filename, line, f"the {what} {attribute!r} built here") for line in lines[1:]]
            return built + [_place(filename, lines[0], f"{what} {attribute!r} registered here")]
    return []


def _registration_lines(filename: str, type_name: str, attribute: str) -> tuple[int, ...]:
    """(registration line, and the line that built the registered local variable, if any)."""
    source = parsed(filename)
    if source is None:
        return ()
    key = ("registration", type_name, attribute)
    if key not in source.memo:
        source.memo[key] = tuple(_registration_in(source.classes.get(type_name, ()), attribute))
    return source.memo[key]


def _registration_in(classes: Iterable[ast.ClassDef], attribute: str) -> list[int]:
    for node in classes:
        for function in ast.walk(node):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(function):
                if _registers(inner, attribute):
                    return [inner.lineno] + _assignment_of(function, _registered_name(inner), inner.lineno)
    return []


def _registered_name(node: ast.AST) -> str | None:
    value = node.args[1] if isinstance(node, ast.Call) and len(node.args) > 1 else getattr(node, "value", None)
    while isinstance(value, (ast.Call, ast.Attribute)) and not isinstance(value, ast.Name):
        value = value.func if isinstance(value, ast.Call) else value.value  # mask.view(...) -> mask
    return value.id if isinstance(value, ast.Name) else None


def _assignment_of(function: ast.AST, name: str | None, before: int) -> list[int]:
    """The last line before `before` in `function` that assigns `name`."""
    if name is None:
        return []
    found = [node for node in _assignments(function, lambda target: isinstance(target, ast.Name) and target.id == name,
                                           before)
             if not (isinstance(node.value, ast.Constant) and node.value.value is None)]  # not `mask = None`
    return [found[0].lineno] if found else []


def _registers(node: ast.AST, attribute: str) -> bool:
    """`self.register_buffer("name", ...)`, `self.register_parameter("name", ...)` or `self.name = ...`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("register_buffer", "register_parameter") and node.args:
        first = node.args[0]
        return isinstance(first, ast.Constant) and first.value == attribute
    if isinstance(node, ast.Assign):
        return any(isinstance(target, ast.Attribute) and target.attr == attribute for target in node.targets)
    return False


def triangle_call(filename: str, line: int) -> tuple[str, int | None] | None:
    """`("tril", -1)` for a `torch.tril(..., diagonal=-1)` (or `x.triu(1)`) written on that line."""
    tree = _tree(filename)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node, "lineno", 0) <= line <= getattr(node, "end_lineno", 0):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("tril", "triu"):
                method = isinstance(node.func, ast.Attribute) and not (
                    isinstance(node.func.value, ast.Name) and node.func.value.id == "torch")
                given = next((k.value for k in node.keywords if k.arg == "diagonal"), None)
                if given is None:
                    positional = node.args[0 if method else 1:2 if not method else 1]
                    given = positional[0] if positional else ast.Constant(0)
                return name, _constant_int(given)
    return None


def _constant_int(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value if isinstance(node.operand.value, int) else None
    return None


def factor_definitions(filename: str, line: int, role: str) -> tuple[Related, ...]:
    """Where the plain numbers that `line` multiplies or divides by were computed: `scores * scale`
    with `scale = 1 / math.sqrt(d_model)` a few lines up, or `self.scale` set in `__init__`. Python
    numbers leave no trace in the recording, so the user's source is read instead."""
    tree = _tree(filename)
    if tree is None:
        return ()
    function = _innermost(tree, (ast.FunctionDef, ast.AsyncFunctionDef), line)
    owner = _innermost(tree, (ast.ClassDef,), line)
    found: list[Related] = []
    for node in ast.walk(function or tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div))
                and node.lineno <= line <= getattr(node, "end_lineno", node.lineno)):
            continue
        for operand in (node.left, node.right):
            if isinstance(operand, ast.Name):
                scope = [function or tree, tree]
                assigned = [a for where in scope for a in _assignments(where, lambda t: isinstance(t, ast.Name)
                                                                       and t.id == operand.id, line)][:1]
            elif isinstance(operand, ast.Attribute) and isinstance(operand.value, ast.Name) \
                    and operand.value.id == "self" and owner is not None:
                assigned = _assignments(owner, lambda t: isinstance(t, ast.Attribute) and t.attr == operand.attr, None)[:1]
            else:
                continue
            found += [_place(filename, a.lineno, role) for a in assigned if a.lineno != line and _numeric(a.value)]
    return tuple(dict.fromkeys(found))[:2]


def _assignments(scope: ast.AST, is_target, before: int | None) -> list[ast.Assign]:
    """Assignments in `scope` to a target `is_target` accepts, the last one (before `before`) first."""
    found = [node for node in ast.walk(scope) if isinstance(node, ast.Assign)
             and (before is None or node.lineno < before) and any(is_target(t) for t in node.targets)]
    return sorted(found, key=lambda node: -node.lineno)


# Calls a plain number may be computed with: math.sqrt(d), float(d), x.size(-1) ** -0.5.
NUMERIC_CALLS = frozenset({"sqrt", "pow", "float", "int", "log", "exp", "size", "dim", "numel", "rsqrt"})


def _numeric(value: ast.AST) -> bool:
    """An expression that computes a number, not a tensor: constants, names and arithmetic, with
    no call but math functions and sizes."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in NUMERIC_CALLS:
                return False
        elif isinstance(node, (ast.Subscript, ast.List, ast.Tuple, ast.Lambda, ast.Compare)):
            if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "shape"):
                return False
    return True


def _innermost(tree: ast.AST, kinds: tuple, line: int) -> ast.AST | None:
    """The innermost node of one of `kinds` whose body holds `line`."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, kinds) and node.lineno <= line <= getattr(node, "end_lineno", node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def scaled_in_place(analysis: "Analysis", parameter: str) -> Related | None:
    """Where the module that owns `parameter` scales it in place (`self.q_proj.weight.mul_(d ** -0.5)`,
    `self.q.weight.data /= math.sqrt(d)`): a factor folded into the weights at construction,
    which no forward pass shows."""
    path, _, attribute = parameter.rpartition(".")
    child = path.rpartition(".")[2]
    owner_path = path.rpartition(".")[0]
    type_name = next((call.type_name for call in analysis.recording.module_calls if call.path == owner_path), None)
    if type_name is None or not child:
        return None
    for filename in _user_files(analysis):
        source = parsed(filename)
        for node in source.classes.get(type_name, ()) if source is not None else ():
            for inner in ast.walk(node):
                if _scales(inner, child, attribute):
                    return _place(filename, inner.lineno, f"{child}.{attribute} scaled here")
    return None


def _scales(node: ast.AST, child: str, attribute: str) -> bool:
    """`self.<child>.<attribute>[.data].mul_(...)` / `.div_(...)`, or `... *= ...` / `... /= ...`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("mul_", "div_"):
        return _is_self_parameter(node.func.value, child, attribute)
    if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Mult, ast.Div)):
        return _is_self_parameter(node.target, child, attribute)
    return False


def _is_self_parameter(node: ast.AST, child: str, attribute: str) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    return (isinstance(node, ast.Attribute) and node.attr == attribute and isinstance(node.value, ast.Attribute)
            and node.value.attr == child and isinstance(node.value.value, ast.Name) and node.value.value.id == "self")


def module_definition(analysis: "Analysis", path: str, role: str) -> tuple[Related, ...]:
    """Where the module at `path` was made: `self.norm = nn.LayerNorm((T, d))` in its parent's class
    (an argument given there, not in the forward, may be the mistake)."""
    parent, _, attribute = path.rpartition(".")
    types = analysis.module_types()
    if attribute.isdigit():  # the k-th module given to `self.stem = nn.Sequential(...)`
        grandparent, _, container = parent.rpartition(".")
        if types.get(grandparent) is None or not container or container.isdigit():
            return ()
        for filename in _user_files(analysis):
            line = _argument_line(filename, types[grandparent], container, int(attribute))
            if line is not None:
                return (_place(filename, line, role),)
        return ()
    type_name = types.get(parent)
    if type_name is None or not attribute:
        return ()
    for filename in _user_files(analysis):
        lines = _registration_lines(filename, type_name, attribute)
        if lines:
            return (_place(filename, lines[0], role),)
    return ()


def _argument_line(filename: str, type_name: str, attribute: str, position: int) -> int | None:
    """The line of the `position`-th argument of the call assigned to `self.<attribute>` in class
    `type_name` (`self.stem = nn.Sequential(conv, norm, ...)`), or None."""
    source = parsed(filename)
    if source is None:
        return None
    for cls in source.classes.get(type_name, ()):
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and any(
                    isinstance(target, ast.Attribute) and target.attr == attribute and
                    isinstance(target.value, ast.Name) and target.value.id == "self" for target in node.targets):
                arguments = node.value.args
                if position < len(arguments) and not any(isinstance(arg, ast.Starred) for arg in arguments):
                    return arguments[position].lineno
    return None


def library_call(analysis: "Analysis", index: int) -> tuple[Related, ...]:
    """Where the user's code called the installed library in which op `index` ran: the
    `self.lm(...)` line of the user's module around the library's (its own lines are no place to
    fix the user's call)."""
    event = analysis.recording.events[index]
    if not installed(event.file) or not event.module:
        return ()
    types = {call.path: call.type_name for call in analysis.recording.module_calls}
    parts = event.module.split(".")
    for depth in range(1, len(parts) + 1):
        parent, attribute = ".".join(parts[:depth - 1]), parts[depth - 1]
        type_name = types.get(parent)
        for filename in _user_files(analysis) if type_name is not None and not attribute.isdigit() else ():
            lines = _call_lines(filename, type_name, attribute)
            if lines:
                return (_place(filename, lines[0], "the library called here"),)
    return ()


def _call_lines(filename: str, type_name: str, attribute: str) -> tuple[int, ...]:
    """Lines of class `type_name` that call `self.<attribute>(...)`."""
    source = parsed(filename)
    if source is None or installed(filename):
        return ()
    key = ("calls", type_name, attribute)
    if key not in source.memo:
        source.memo[key] = tuple(sorted(
            node.lineno for cls in source.classes.get(type_name, ()) for node in ast.walk(cls)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attribute
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"))
    return source.memo[key]


def _user_files(analysis: "Analysis") -> list[str]:
    """The user's source files the recorded ops ran from, where classes are looked up by name."""
    return sorted({event.file for event in analysis.recording.events if event.file})
