"""Pages generated from the code stay true: the zoo table, the outputs shown in docs/checks.md, the gallery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_zoo_page_lists_the_zoo_as_it_is() -> None:
    made = subprocess.run([sys.executable, "docs/make_zoo_table.py"], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    assert made.stdout == (ROOT / "docs" / "zoo.md").read_text()


def test_checks_page_shows_what_attnscope_prints_today() -> None:
    checked = subprocess.run([sys.executable, "docs/make_check_outputs.py", "--check"], cwd=ROOT,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_gallery_shows_what_attnscope_draws_today() -> None:
    """Every gallery SVG byte for byte as its own command draws it now (a finding that became a
    consequence left `causal_diagonal_triu_zero.svg` showing errors the tool no longer draws)."""
    checked = subprocess.run([sys.executable, "docs/gallery/make_gallery.py", "--check"], cwd=ROOT,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr[-2000:]
