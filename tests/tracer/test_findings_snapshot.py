"""No check weakened by speed work: every model's findings equal the committed snapshot.

The snapshot (tests/fixtures/findings_snapshot.json) holds the findings of every zoo model and
of every model the style, library and HuggingFace tests check. A change that is meant to
alter findings rewrites it with

    .venv/bin/python benchmarks/findings_snapshot.py --write tests/fixtures/findings_snapshot.json

and the diff of that file shows, in review, exactly which findings changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SNAPSHOT = os.path.join(ROOT, "tests", "fixtures", "findings_snapshot.json")


def test_findings_of_every_model_match_the_snapshot():
    # A fresh process: the snapshot runs the test files under pytest itself.
    done = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "findings_snapshot.py"),
                           "--compare", SNAPSHOT], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    with open(SNAPSHOT) as stored:
        assert len(json.load(stored)) >= 100  # every zoo model and every test-file model
