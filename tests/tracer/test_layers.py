"""The analysis reads as a pipeline: no stage imports a stage that runs after it.

record → analysis stages (axes, rules, dataflow, inputs, evidence, blocks) → checks → witnesses
→ presentation. A check that needs a fact asks the evidence for it; a witness reads the facts the
analysis produced and never a check; a diagram draws the analysis, not a check's internals.
Imports under `TYPE_CHECKING` are type hints only and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS_STAGES = ("tracer.axes", "tracer.rules", "tracer.dataflow", "tracer.inputs", "tracer.evidence", "tracer.blocks")
PRESENTATION = ("tracer.render", "tracer.formats", "tracer.commands", "tracer.cli", "tui")
LATER = {  # a stage -> the stages it must not import
    ANALYSIS_STAGES: ("tracer.checks", "tracer.witness", "tracer.analysis", "tracer.api", "tracer.trace", *PRESENTATION),
    ("tracer.checks",): ("tracer.witness", "tracer.api", "tracer.trace", *PRESENTATION),
    ("tracer.witness",): ("tracer.checks", *PRESENTATION),
    ("tracer.render",): ("tracer.checks", "tracer.witness"),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module) of every import that runs, wherever it is written (functions too)."""
    tree = ast.parse(path.read_text())
    hints = {id(node) for guard in ast.walk(tree)
             if isinstance(guard, ast.If) and "TYPE_CHECKING" in ast.unparse(guard.test)
             for node in ast.walk(guard)}
    package = path.relative_to(root).with_suffix("").parts[:-1]
    found = []
    for node in ast.walk(tree):
        if id(node) in hints:
            continue
        if isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            found.append((node.lineno, ".".join(base + ([node.module] if node.module else []))))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def test_the_import_reader_sees_relative_imports_in_functions_and_skips_type_hints(tmp_path) -> None:
    package = tmp_path / "tracer" / "witness"
    package.mkdir(parents=True)
    source = package / "probe.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..checks import base\n"
                      "def f():\n    from ..checks.causal import x\n")
    assert runtime_imports(source, tmp_path) == [(1, "typing"), (5, "tracer.checks.causal")]


@pytest.mark.parametrize("stage", list(LATER), ids=lambda stage: stage[0].split(".")[-1])
def test_no_stage_imports_one_that_runs_after_it(stage: tuple[str, ...]) -> None:
    files = [path for path in sorted(ROOT.glob("tracer/**/*.py")) if _within(_module_name(path), stage)]
    assert files, f"no module found for {stage}"
    crossings = [f"{path.relative_to(ROOT)}:{line} imports {module}"
                 for path in files for line, module in runtime_imports(path) if _within(module, LATER[stage])]
    assert not crossings, "\n".join(crossings)
