"""Where a value was built: the user-code lines behind a faulty operand, for findings' `related` notes.

A finding stands where the wrong value is *used* (the masked_fill line); its notes say where
that value was *built*: the lines of the ops that made it, nearest first, and for a buffer
or parameter, where the module registered it (usually in `__init__`, which ran before
tracing and so left no events). Registration sites are found by reading the module class's
own source: `self.register_buffer("mask", ...)` or `self.mask = ...`.
"""

from __future__ import annotations

import ast
import linecache
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable

from ..findings import Related

if TYPE_CHECKING:
    from ..analysis import Analysis

PASS_THROUGH = frozenset({
    "unsqueeze", "squeeze", "view", "reshape", "expand", "expand_as", "contiguous", "clone", "detach",
    "to", "type", "float", "bool", "long", "int", "half", "bfloat16", "getitem", "transpose", "permute",
    "flatten", "unflatten",
})


@lru_cache(maxsize=64)
def _tree(filename: str) -> ast.Module | None:
    source = "".join(linecache.getlines(filename))
    try:
        return ast.parse(source) if source else None
    except SyntaxError:
        return None


def enclosing_function(filename: str, line: int) -> str:
    """The qualified name of the innermost function or class body holding `line`, or ""."""
    tree = _tree(filename)
    if tree is None:
        return ""
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


def construction(analysis: "Analysis", vid: int, role: str, skip: Iterable[tuple[str, int]] = (),
                 limit: int = 2) -> tuple[Related, ...]:
    """The user lines that built value `vid`, nearest first: the ops that made it, and where a
    buffer or parameter it was made from was registered."""
    seen = set(skip)
    found: list[Related] = []
    frontier, visited = [vid], set()
    while frontier and len(found) < limit:
        current = frontier.pop(0)
        if current in visited:
            continue
        visited.add(current)
        event = analysis.flow.made_by(current) if analysis.flow is not None else None
        if event is None:
            source = analysis.recording.sources.get(current)
            site = registration(analysis, source.kind, source.name) if source is not None else None
            if site is not None and (site.file, site.line) not in seen:
                seen.add((site.file, site.line))
                found.append(site)
            continue
        if event.file and (event.file, event.line) not in seen:
            seen.add((event.file, event.line))
            found.append(_place(event.file, event.line, role))
        frontier.extend(meta.vid for meta in event.inputs)
    return tuple(found[:limit])


def registration(analysis: "Analysis", kind: str, name: str) -> Related | None:
    """Where the module that owns buffer or parameter `name` registered it, read from its class source."""
    if kind not in ("buffer", "param") or not name:
        return None
    path, _, attribute = name.rpartition(".")
    type_name = next((call.type_name for call in analysis.recording.module_calls if call.path == path), None)
    if type_name is None:
        return None
    files = {event.file for event in analysis.recording.events if event.module == path and event.file}
    files |= {event.file for event in analysis.recording.events if event.file}
    for filename in sorted(files):
        line = _registration_line(filename, type_name, attribute)
        if line:
            what = "buffer" if kind == "buffer" else "parameter"
            return _place(filename, line, f"{what} {attribute!r} registered here")
    return None


def _registration_line(filename: str, type_name: str, attribute: str) -> int:
    tree = _tree(filename)
    if tree is None:
        return 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == type_name:
            for inner in ast.walk(node):
                if _registers(inner, attribute):
                    return inner.lineno
    return 0


def _registers(node: ast.AST, attribute: str) -> bool:
    """`self.register_buffer("name", ...)`, `self.register_parameter("name", ...)` or `self.name = ...`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("register_buffer", "register_parameter") and node.args:
        first = node.args[0]
        return isinstance(first, ast.Constant) and first.value == attribute
    if isinstance(node, ast.Assign):
        return any(isinstance(target, ast.Attribute) and target.attr == attribute for target in node.targets)
    return False
