"""Jupyter notebooks as targets and scripts: their code cells, run in order, as one module.

Students hand in `homework.ipynb`, not a file with a `build()`. A notebook is read with
nbformat; each code cell is compiled under its own file name, `<notebook path>:cell N`
(N: the cell's 1-based position among all the notebook's cells, as Jupyter numbers them),
so a finding's frame names the cell and the line within it, and text output reads
`homework.ipynb:cell 3:12:`. `Finding.to_dict` splits that name into `file` (the notebook)
and `cell`, which is what JSON, SARIF and GitHub annotations carry.

IPython syntax (`!pip install ...`, `%matplotlib inline`, a whole `%%time` cell) is not
Python: those lines become `pass` (so every other line keeps its number) and are counted
in one note. nbformat is imported only when a notebook is read.
"""

from __future__ import annotations

import linecache
import os
import re
from dataclasses import dataclass
from typing import Any

from .specs import TargetError

SUFFIX = ".ipynb"
CELL_NAME = re.compile(r"^(?P<path>.*\.ipynb):cell (?P<cell>\d+)$")


def cell_filename(path: str, cell: int) -> str:
    """The file name a cell's code is compiled under: `/abs/homework.ipynb:cell 3`."""
    return f"{path}:cell {cell}"


def split_cell(filename: str) -> tuple[str, int | None]:
    """`(notebook path, cell)` for a cell's file name; `(filename, None)` for any other file."""
    found = CELL_NAME.match(filename)
    return (found.group("path"), int(found.group("cell"))) if found else (filename, None)


def location(filename: str, line: int) -> dict[str, Any]:
    """`{"file", "line"}` as JSON carries a place, with `"cell"` (and the notebook as `file`) in a notebook."""
    path, cell = split_cell(filename)
    return {"file": path, "cell": cell, "line": line} if cell is not None else {"file": filename, "line": line}


def is_ipython(line: str) -> bool:
    """A shell escape (`!ls`) or a line magic (`%matplotlib inline`): IPython's, not Python's."""
    return line.lstrip().startswith(("!", "%"))


@dataclass(frozen=True)
class Cell:
    """One code cell: where it is, its source as Python, and the IPython lines taken out."""

    number: int  # 1-based among all the notebook's cells
    filename: str
    source: str
    skipped: tuple[str, ...]


def _python(source: str) -> tuple[str, tuple[str, ...]]:
    """The cell's source with IPython lines (a `%%` cell: all of it) as `pass`, and those lines."""
    lines = source.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if first.lstrip().startswith("%%"):
        return "\n".join("" for _ in lines), (first.strip(),)
    kept, skipped = [], []
    for line in lines:
        if is_ipython(line):
            skipped.append(line.strip())
            line = line[: len(line) - len(line.lstrip())] + "pass"
        kept.append(line)
    return "\n".join(kept) + "\n", tuple(skipped)


@dataclass(frozen=True)
class Notebook:
    path: str  # absolute
    cells: tuple[Cell, ...]

    def note(self) -> str | None:
        """One note for every IPython line skipped, or None when there were none."""
        skipped = [(cell.number, line) for cell in self.cells for line in cell.skipped]
        if not skipped:
            return None
        shown = ", ".join(f"`{line}` (cell {number})" for number, line in skipped[:3])
        more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        word = "line" if len(skipped) == 1 else "lines"
        return f"skipped {len(skipped)} IPython {word} of {os.path.basename(self.path)}: {shown}{more}"

    def run(self, namespace: dict[str, Any]) -> None:
        """Run every code cell in order in `namespace`, as a kernel would; a cell's error propagates.

        Each cell's source goes into `linecache`, so tracebacks and the terminal UI show it.
        """
        for cell in self.cells:
            linecache.cache[cell.filename] = (len(cell.source), None, cell.source.splitlines(True), cell.filename)
            exec(compile(cell.source, cell.filename, "exec"), namespace)  # noqa: S102 - the user's own notebook


def read(path: str) -> Notebook:
    """The notebook at `path`; a one-line `TargetError` (naming `path` as given) when it is not
    one nbformat can read."""
    import nbformat

    given, path = path, os.path.abspath(os.path.expanduser(path))
    try:
        document = nbformat.read(path, as_version=4)
    except OSError as problem:
        raise TargetError(f"{given} cannot be read ({problem.strerror or problem})") from None
    except Exception as problem:  # noqa: BLE001 - nbformat reports bad JSON and schemas its own ways
        raise TargetError(f"{given} is not a Jupyter notebook ({' '.join(str(problem).split())[:200]})") from None
    cells = []
    for number, cell in enumerate(document.cells, 1):
        if cell.get("cell_type") == "code":
            source, skipped = _python(cell.get("source", ""))
            cells.append(Cell(number, cell_filename(path, number), source, skipped))
    return Notebook(path, tuple(cells))


def source_line(filename: str, line: int) -> str:
    """Line `line` of a file, or of a notebook cell (as its author wrote it); "" when there is none."""
    path, cell = split_cell(filename)
    if cell is None:
        linecache.checkcache(filename)  # the file may have been edited since it was cached
        return linecache.getline(filename, line)
    try:
        import nbformat

        cells = nbformat.read(path, as_version=4).cells
    except Exception:  # noqa: BLE001 - a source line is an extra: the finding stands without it
        return ""
    lines = cells[cell - 1].get("source", "").splitlines() if 0 < cell <= len(cells) else []
    return lines[line - 1] if 0 < line <= len(lines) else ""


def code_of(path: str) -> str:
    """Every code cell of a notebook as one Python text, for reading names and imports with `ast`."""
    try:
        return "\n".join(cell.source for cell in read(path).cells)
    except TargetError:
        return ""
