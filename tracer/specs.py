"""Target names on the command line, read without running them: forms, patterns, hints, keys.

Everything here looks at names and files only (no torch, no user code), so the CLI can
refuse a mistyped target, expand `'subs/*.py:build'` and key a results file before any
child process starts, in a few milliseconds. Loading a target is `targets.load_target`.
"""

from __future__ import annotations

import ast
import glob
import hashlib
import os
from dataclasses import dataclass

TARGET_FORMS = "path/to/file.py:NAME, path/to/notebook.ipynb[:NAME], dotted.module:NAME or zoo:NAME"
RECORDING_SUFFIX = ".attntrace"
NOTEBOOK_SUFFIX = ".ipynb"
NOTEBOOK_NAME = "build"  # what a notebook target without `:NAME` builds


class TargetError(Exception):
    """A target that cannot be loaded; the message is one line and names what was expected.

    `place` is `(file, line)` of the user's line that failed (a syntax error, the line that
    raised), where one is known, so that SARIF and GitHub annotations can point at it.
    """

    def __init__(self, message: str, place: tuple[str, int] | None = None) -> None:
        super().__init__(message)
        self.place = place


@dataclass(frozen=True)
class Spec:
    """A target as given, split into its kind ("file", "notebook", "dotted", "zoo", "recording") and parts."""

    text: str
    kind: str
    where: str  # the file (Python, notebook, recording), the dotted module, or the zoo name
    name: str = ""


def parse(text: str) -> Spec:
    """Split `text` into a `Spec`; raise `TargetError` (with a hint where one helps) if it is none."""
    if text.endswith(RECORDING_SUFFIX):
        return Spec(text, "recording", text)
    if text.startswith("zoo:"):
        return Spec(text, "zoo", text[4:])
    if text.endswith(NOTEBOOK_SUFFIX):
        return Spec(text, "notebook", text, NOTEBOOK_NAME)
    where, colon, name = text.rpartition(":")
    if not colon or not where or not name.isidentifier():
        raise TargetError(_not_a_target(text))
    if where.endswith(NOTEBOOK_SUFFIX):
        return Spec(text, "notebook", where, name)
    if where.endswith(".py") or os.sep in where or "/" in where:
        return Spec(text, "file", where, name)
    return Spec(text, "dotted", where, name)


def file_problem(spec: Spec) -> str | None:
    """Why a file target's file cannot be imported (missing, a directory), or None."""
    if spec.kind not in ("file", "notebook"):
        return None
    path = os.path.expanduser(spec.where)
    if os.path.isdir(path):
        what = "a notebook" if spec.kind == "notebook" else "a Python file"
        return f"{spec.text}: {spec.where} is a directory, not {what} (expected {TARGET_FORMS})"
    if not os.path.isfile(path):
        if glob.has_magic(spec.where):  # `expand` left it as given: it matched nothing
            return f"{spec.text}: the pattern {spec.where} matched no file"
        return f"{spec.text}: no such file {spec.where} (expected {TARGET_FORMS})"
    return None


def problem(text: str) -> str | None:
    """The one-line error a target gets before anything runs (its form, its file), or None."""
    try:
        return file_problem(parse(text))
    except TargetError as error:
        return str(error)


# --------------------------------------------------------------------------- hints
def _not_a_target(text: str) -> str:
    if os.path.isdir(text):
        return _directory_hint(text)
    if text.endswith(".py") and glob.has_magic(text):
        return _pattern_hint(text)
    if text.endswith(".py") and os.path.isfile(text):
        found = buildable_names(text)
        if found:
            choices = " or ".join(f"{text}:{name}" for name in found[:3])
            return f"{text!r} is a file, not a target: name what to build in it, e.g. {choices}"
        return (f"{text!r} is a file, not a target: name what builds the model in it, {text}:NAME, NAME being a "
                "function without arguments that returns (model, args), or an nn.Module class with "
                "example_inputs(); it defines neither yet")
    if text.endswith(".py"):
        return f"{text!r} is not a target: no such file {text} (expected {TARGET_FORMS})"
    return f"{text!r} is not a target (expected {TARGET_FORMS})"


def _pattern_hint(pattern: str) -> str:
    """`'subs/*.py'` without its NAME: the NAME the matching files define most, or that none matched."""
    files = sorted(glob.glob(pattern))
    if not files:
        return f"{pattern!r}: the pattern matched no file"
    names = [name for path in files[:20] for name in buildable_names(path)]
    common = max(set(names), key=names.count) if names else "build"
    return f"{pattern!r} is a pattern without a NAME: give what to build in each file, e.g. '{pattern}:{common}'"


def _directory_hint(folder: str) -> str:
    files = sorted(glob.glob(os.path.join(folder, "*.py")))
    names = [name for path in files[:20] for name in buildable_names(path)]
    common = max(set(names), key=names.count) if names else "build"
    pattern = os.path.join(folder, "*.py")
    return f"{folder!r} is a directory, not a target: for each submission in it, give the pattern '{pattern}:{common}'"


def _syntax_tree(path: str | None) -> ast.Module | None:
    """A Python file's or a notebook's code (its code cells in order) parsed with `ast`, never run."""
    if path is None or not path.endswith((".py", NOTEBOOK_SUFFIX)):
        return None
    try:
        if path.endswith(NOTEBOOK_SUFFIX):
            from .notebook import code_of

            text = code_of(path)
        else:
            with open(path, encoding="utf-8") as source:
                text = source.read()
        return ast.parse(text, filename=path)
    except (OSError, SyntaxError, ValueError):
        return None


def buildable_names(path: str) -> list[str]:
    """Top-level names in `path` (a Python file or a notebook) a target could use: functions
    without required arguments (`build` first) and classes that define `example_inputs`."""
    tree = _syntax_tree(path)
    if tree is None:
        return []
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            required = len(arguments.posonlyargs) + len(arguments.args) - len(arguments.defaults)
            if required == 0 and not any(default is None for default in arguments.kw_defaults):
                found.append(node.name)
        elif isinstance(node, ast.ClassDef) and any(
            isinstance(item, ast.FunctionDef) and item.name == "example_inputs" for item in node.body
        ):
            found.append(node.name)
    return sorted(found, key=lambda name: (name != "build", not name.startswith("build"), found.index(name)))


# --------------------------------------------------------------------------- patterns
def expand(texts: list[str]) -> list[str]:
    """`subs/*.py:build` as one target per matching file, sorted, as an autograder means it.

    The shell cannot expand the pattern itself (no file is named `a.py:build`), so it
    arrives verbatim; a pattern that matches nothing stays as given and fails as a target.
    A notebook pattern may leave out its NAME (`'subs/*.ipynb'`), as a notebook target may.
    """
    expanded: list[str] = []
    for text in texts:
        where, colon, name = text.rpartition(":")
        if text.endswith(NOTEBOOK_SUFFIX):
            where, colon, name = text, "", ""
        matches = sorted(glob.glob(where)) if glob.has_magic(where) and (colon or name == "") else []
        if matches:
            expanded.extend(f"{match}{colon}{name}" for match in matches)
        else:
            expanded.append(text)
    return expanded


# --------------------------------------------------------------------------- files behind a target
def source_file(spec: Spec, cwd: str) -> str | None:
    """The file whose content a target's results depend on first, found without importing it."""
    if spec.kind in ("file", "notebook", "recording"):
        return os.path.abspath(os.path.join(cwd, os.path.expanduser(spec.where)))
    if spec.kind == "dotted":
        base = os.path.join(cwd, *spec.where.split("."))
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


def content_hash(path: str | None) -> str | None:
    """SHA-256 of a file's bytes, or None when there is no such file."""
    if path is None:
        return None
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as data:
            for block in iter(lambda: data.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def imported_packages(path: str | None) -> list[str]:
    """`package` and `package.name` for each `import`/`from ... import` in a file, read with `ast`.

    The warm parent of the child processes preloads those that are installed, so a cohort
    of submissions that all import transformers pays for it once. A name the submission's
    own folder provides (`utils.py` beside it) is left out: preloading an installed package
    of that name would hide the student's own module.
    """
    tree = _syntax_tree(path)
    if tree is None:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
    folder = os.path.dirname(path)

    def local(name: str) -> bool:
        top = os.path.join(folder, name.partition(".")[0])
        return os.path.isfile(top + ".py") or os.path.isdir(top)

    return [name for name in dict.fromkeys(names) if not local(name)]
