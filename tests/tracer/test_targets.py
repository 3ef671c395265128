"""Loading targets (CONTRACT.md "Targets"): the accepted forms, the zoo link, isolation, errors."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from torch import nn

import tracer
from tracer import targets
from tracer.targets import TargetError, Workload, isolated, load_target, zoo_entries

HEADER = "import torch\nfrom torch import nn\n\n"


def write(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(HEADER + textwrap.dedent(body))
    return path


@pytest.mark.parametrize(
    ("body", "args", "kwargs"),
    [
        ("def build():\n    return nn.Linear(3, 3), (torch.ones(2, 3),)\n", [(2, 3)], []),
        ("def build():\n    return nn.Linear(3, 3), torch.ones(2, 3)\n", [(2, 3)], []),
        ("class Flagged(nn.Linear):\n    def forward(self, input, flag=0):\n        return super().forward(input)\n\n"
         "def build():\n    return Flagged(3, 3), [torch.ones(2, 3)], {'flag': 1}\n", [(2, 3)], ["flag"]),
        ("def build():\n    return nn.Linear(3, 3), {'input': torch.ones(2, 3)}\n", [], ["input"]),
    ],
    ids=["args-tuple", "single-tensor", "args-kwargs", "kwargs-dict"],
)
def test_file_target_return_forms(tmp_path: Path, body: str, args: list, kwargs: list) -> None:
    path = write(tmp_path, "model.py", body)
    with isolated():
        workload = load_target(f"{path}:build")
    assert isinstance(workload, Workload)
    assert isinstance(workload.model, nn.Linear)
    assert isinstance(workload.args, tuple)
    assert [tuple(arg.shape) for arg in workload.args] == args
    assert sorted(workload.kwargs) == kwargs
    assert workload.label == f"{path}:build"


@pytest.mark.parametrize(
    ("returned", "args", "kwargs"),
    [
        ("torch.ones(2, 3)", 1, []),
        ("(torch.ones(2, 3), torch.ones(2, 3))", 2, []),
        ("((torch.ones(2, 3),), {'mask': None})", 1, ["mask"]),
        ("{'x': torch.ones(2, 3)}", 0, ["x"]),
    ],
    ids=["tensor", "args", "args-kwargs", "kwargs"],
)
def test_module_subclass_target_uses_example_inputs(tmp_path: Path, returned: str, args: int, kwargs: list) -> None:
    path = write(
        tmp_path, "net.py",
        f"""
        class Net(nn.Module):
            def forward(self, x, y=None, mask=None):
                return x

            def example_inputs(self):
                return {returned}
        """,
    )
    with isolated():
        workload = load_target(f"{path}:Net")
    assert type(workload.model).__name__ == "Net"
    assert len(workload.args) == args
    assert sorted(workload.kwargs) == kwargs


def test_file_target_imports_its_sibling_modules(tmp_path: Path) -> None:
    (tmp_path / "helper_sibling.py").write_text("WIDTH = 5\n")
    path = write(tmp_path, "model.py", "import helper_sibling\n\ndef build():\n    return nn.Linear(helper_sibling.WIDTH, 1), torch.ones(1, helper_sibling.WIDTH)\n")
    with isolated():
        workload = load_target(f"{path}:build")
        assert "helper_sibling" in sys.modules
    assert workload.model.in_features == 5
    assert "helper_sibling" not in sys.modules
    assert str(tmp_path) not in sys.path


def test_dotted_module_target_is_found_from_the_current_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "student_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    write(package, "model.py", "def build():\n    return nn.Linear(2, 2), torch.ones(1, 2)\n")
    monkeypatch.chdir(tmp_path)
    with isolated():
        workload = load_target("student_pkg.model:build")
    assert isinstance(workload.model, nn.Linear)
    assert "student_pkg" not in sys.modules


def test_isolated_seeds_and_restores_the_random_generator() -> None:
    torch.manual_seed(123)
    expected_outside = torch.randn(3)
    torch.manual_seed(123)
    with isolated():
        first = torch.randn(3)
    with isolated():
        second = torch.randn(3)
    assert torch.equal(first, second)
    assert torch.equal(torch.randn(3), expected_outside)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("model.py", "is not a target"),
        ("model.py:", "is not a target"),
        ("zoo", "is not a target"),
        ("{dir}/absent.py:build", "no such file"),
        ("{dir}/model.py:buidl", "has no attribute 'buidl'; did you mean build?"),
        ("{dir}/model.py:WIDTH", "is an int, not callable"),
        ("{dir}/model.py:wrong", "wrong() returned a tuple of (int, int) (expected (model, args)"),
        ("{dir}/model.py:no_inputs", "no_inputs() returned no inputs for Linear.forward(input) "
                                     "(missing a required argument: 'input'"),
        ("{dir}/model.py:two_inputs", "two_inputs() returned 2 positional and 0 keyword inputs for "
                                      "Linear.forward(input) (too many positional arguments"),
    ],
)
def test_errors_are_one_line_and_name_what_was_expected(tmp_path: Path, spec: str, expected: str) -> None:
    write(tmp_path, "model.py", "WIDTH = 3\n\ndef build():\n    return nn.Linear(3, 3), torch.ones(3)\n\ndef wrong():\n    return 1, 2\n"
          "\ndef no_inputs():\n    return nn.Linear(3, 3), ()\n"
          "\ndef two_inputs():\n    return nn.Linear(3, 3), (torch.ones(3), torch.ones(3))\n")
    with pytest.raises(TargetError) as raised, isolated():
        load_target(spec.format(dir=tmp_path))
    message = str(raised.value)
    assert expected in message
    assert "\n" not in message


def fake_zoo(**modules: SimpleNamespace) -> dict[str, SimpleNamespace]:
    return {
        name: SimpleNamespace(build=lambda: (nn.Linear(2, 2), torch.ones(1, 2)), module=module, expected=(), summary="")
        for name, module in modules.items()
    }


def test_unknown_zoo_name_suggests_close_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(targets, "zoo_entries", lambda: fake_zoo(softmax_axis_query=SimpleNamespace()))
    with pytest.raises(TargetError, match="did you mean softmax_axis_query"):
        load_target("zoo:softmax_axis_qery")


def test_zoo_catalogue_comes_from_the_entry_point_and_builds() -> None:
    entries = zoo_entries()
    assert entries
    name = next(iter(entries))
    with isolated():
        workload = load_target(f"zoo:{name}")
    assert isinstance(workload.model, nn.Module)
    assert workload.label == f"zoo:{name}"


def test_workload_moves_to_the_meta_device() -> None:
    workload = Workload("x", nn.Linear(2, 2), (torch.ones(1, 2), 3), {"extra": [torch.ones(2)]}).to("meta")
    assert workload.model.weight.device.type == "meta"
    assert workload.args[0].device.type == "meta" and workload.args[1] == 3
    assert workload.kwargs["extra"][0].device.type == "meta"


def test_tracer_never_imports_models_or_tui() -> None:
    """CONTRACT.md "Names": the zoo is reached only through the entry point; the apps built
    on the tracer (`tui`, `experiments`) add their commands through entry points too."""
    root = Path(tracer.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] in ("models", "tui", "experiments") for name in names), path
