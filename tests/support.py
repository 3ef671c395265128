"""Helpers for tests: build zoo models and trace them the way `attnscope check` does.

Imported as `support` (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import textwrap

import torch

import tracer
from models.zoo import ZooModel


def build_workload(entry: ZooModel) -> tuple[torch.nn.Module, tuple, dict]:
    """A zoo entry's (model, args, kwargs), whichever of the contract's forms it returns."""
    built = entry.build()
    if len(built) == 2 and isinstance(built[1], dict):
        return built[0], (), built[1]
    args = built[1] if isinstance(built[1], tuple) else (built[1],)
    return built[0], args, built[2] if len(built) > 2 else {}


def check_entry(entry: ZooModel, witness: bool = True) -> tuple[tracer.Report, tracer.Trace]:
    model, args, kwargs = build_workload(entry)
    return tracer.run_check(model, args, kwargs, target=f"zoo:{entry.name}", witness=witness)



def serious(report: tracer.Report, severities: tuple[str, ...] = ("error",)) -> list[dict]:
    """The findings of the given severities, as dicts (readable in assertion messages)."""
    return [f.to_dict() for f in report.findings if f.severity in severities]


def run(model: torch.nn.Module, args: tuple = (), kwargs: dict | None = None, layout: str | None = None) -> tracer.Report:
    """Check `model` in eval mode from a fixed seed."""
    torch.manual_seed(0)
    return tracer.run_check(model.eval(), args, kwargs or {}, layout=layout)[0]


SUBMISSION = """
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 8 ** 0.5
        return torch.softmax(scores, dim=DIM) @ self.v(x)


def build():
    BUILD
    return Attention().eval(), torch.randn(2, 5, 8)
"""


def submission(dim: int = -1, build: str = "pass", top: str = "") -> str:
    """A student's attention file for cohort tests: correct with dim=-1, a softmax over the queries
    with dim=-2; `build` runs first in build() (hang, crash, print ...), `top` goes above it all."""
    return top + textwrap.dedent(SUBMISSION).replace("DIM", str(dim)).replace("BUILD", build)

