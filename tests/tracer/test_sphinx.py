"""The Sphinx extension `tracer.sphinx`: a sample docs project built with `sphinx-build -W`.

The HTML must hold each diagram inline with its red flag; a Markdown page (MyST) gets the
same directive; editing the model re-renders its diagram while an unchanged one comes from
the cache; a target that fails is a warning at its file and line, which `-W` turns into a
failed build.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")

from sphinx.cmd.build import build_main  # noqa: E402 - only with Sphinx installed

ROOT = Path(__file__).resolve().parents[2]
FLAG_BORDER = "#cf222e"  # the light theme's red for flagged ops (tracer/render/dot.py)
MODEL = '''\
import torch
from torch import nn


class Attention(nn.Module):
    def forward(self, q, k, v):
        scores = q @ k.transpose(-2, -1) / 2.0
        return torch.softmax(scores, dim={dim}) @ v


def build():
    q, k, v = (torch.randn(2, 5, 4) for _ in range(3))
    return Attention(), (q, k, v)
'''


def project(folder: Path, index: str, pages: dict[str, str] | None = None) -> Path:
    """A docs source folder: conf.py with the extension (and MyST), index.rst and other pages."""
    source = folder / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text('project = "sample"\nextensions = ["tracer.sphinx", "myst_parser"]\n')
    (source / "index.rst").write_text(textwrap.dedent(index))
    for name, text in (pages or {}).items():
        (source / name).write_text(textwrap.dedent(text))
    return source


def figures(page: str) -> list[str]:
    """Each diagram's markup, character references decoded (Graphviz writes `-` as `&#45;`)."""
    return [html.unescape(found) for found in re.findall(r'<figure class="attnscope-diagram">.*?</figure>', page, re.DOTALL)]


def test_sphinx_build_places_each_diagram_inline_with_its_flag(tmp_path: Path) -> None:
    source = project(tmp_path, """\
        Sample
        ======

        .. attnscope-diagram:: zoo:softmax_axis_query
           :caption: The softmax normalizes over the queries.

        .. toctree::

           page
        """, {"page.md": """\
        # A Markdown page

        ```{attnscope-diagram} zoo:ok_einsum_causal
        :attention:
        :theme: dark
        ```
        """})
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(source), str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    [figure] = figures((out / "index.html").read_text(encoding="utf-8"))
    assert '<svg role="img" aria-label="attnscope diagram of zoo:softmax_axis_query (1 finding: softmax-axis)"' in figure
    assert "error[softmax-axis]" in figure and FLAG_BORDER in figure
    assert "<figcaption>The softmax normalizes over the queries.</figcaption>" in figure
    assert "<?xml" not in figure and "<!DOCTYPE" not in figure
    [markdown] = figures((out / "page.html").read_text(encoding="utf-8"))
    assert "<svg" in markdown and "attention block 0" in markdown and 'fill="#0d1117"' in markdown
    assert "no findings" in markdown and FLAG_BORDER not in markdown


def build(source: Path, out: Path, *extra: str) -> int:
    return build_main(["-W", "-q", "-b", "html", *extra, str(source), str(out)])


def test_the_cache_follows_the_models_source(tmp_path: Path) -> None:
    source = project(tmp_path, """\
        Model
        =====

        .. attnscope-diagram:: model.py:build
        """)
    model = source / "model.py"
    model.write_text(MODEL.format(dim=-2))
    out, cache = tmp_path / "html", tmp_path / "html" / ".doctrees" / "attnscope-diagrams"
    assert build(source, out, "-d", str(out / ".doctrees")) == 0
    [first] = figures((out / "index.html").read_text(encoding="utf-8"))
    assert "error[softmax-axis]" in first
    [entry] = cache.glob("*.json")
    stamp = entry.stat().st_mtime_ns
    # Everything re-read (-E), the model unchanged: the diagram comes from the cache.
    assert build(source, out, "-E", "-d", str(out / ".doctrees")) == 0
    assert list(cache.glob("*.json")) == [entry] and entry.stat().st_mtime_ns == stamp
    # The model fixed: Sphinx re-reads the page that shows it, and the diagram is new.
    model.write_text(MODEL.format(dim=-1))
    assert build(source, out, "-d", str(out / ".doctrees")) == 0
    [fixed] = figures((out / "index.html").read_text(encoding="utf-8"))
    assert "softmax-axis" not in fixed and "no findings" in fixed
    assert len(list(cache.glob("*.json"))) == 2


def test_a_failing_target_is_a_warning_at_its_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = project(tmp_path, """\
        Broken
        ======

        Some text.

        .. attnscope-diagram:: zoo:no_such_model
        """)
    assert build(source, tmp_path / "html") != 0  # -W: the warning fails the build
    err = capsys.readouterr().err
    [line] = [line for line in err.splitlines() if "attnscope-diagram" in line]
    assert f"{source / 'index.rst'}:6" in line
    assert line.count("zoo:no_such_model") == 1 and "no zoo model named 'no_such_model'" in line
    assert "Traceback" not in err
