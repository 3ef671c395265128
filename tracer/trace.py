"""The public entry point: `with tracer.trace(model) as t: model(x)`, then read `t`."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from torch import nn

from .events import Recording
from .recorder import Recorder
from .values import DEFAULT_BUDGET_BYTES

if TYPE_CHECKING:
    import networkx as nx

    from .analysis import Analysis


class Trace:
    """A recording in progress (inside the `with` block) and its results (after it).

    Everything after the block is derived from `recording`, lazily and once: the graph,
    the axes, the attention blocks and the findings.
    """

    def __init__(
        self,
        model: nn.Module | None = None,
        *,
        value_budget_bytes: int = DEFAULT_BUDGET_BYTES,
        mask_budget_bytes: int | None = None,
        max_passes: int | None = None,
        layout: str | None = None,
        keep_every_value: bool = False,
    ) -> None:
        self.layout = layout
        self._recorder = Recorder(model, value_budget_bytes=value_budget_bytes, mask_budget_bytes=mask_budget_bytes,
                                  max_passes=max_passes, keep_every_value=keep_every_value)

    def __enter__(self) -> "Trace":
        self._recorder.start()
        return self

    def __exit__(self, exc_type: Any, exc: BaseException | None, traceback: Any) -> bool:
        self._recorder.stop(exc)
        return False

    @classmethod
    def from_recording(cls, recording: Recording, layout: str | None = None) -> "Trace":
        """A finished trace around an existing recording (e.g. one loaded from a file)."""
        finished = cls(None, layout=layout)
        finished._recorder.recording = recording
        return finished

    @property
    def recording(self) -> Recording:
        return self._recorder.recording

    @property
    def untraced_passes(self) -> int:
        """Top-level forward passes that ran untraced because `max_passes` were already recorded."""
        return self._recorder.untraced_passes

    @property
    def graph(self) -> nx.MultiDiGraph:
        """The data-flow graph with axis meaning and findings (CONTRACT.md); built once, by the analysis."""
        return self.analysis.graph

    @cached_property
    def analysis(self) -> "Analysis":
        from .analysis import analyse

        return analyse(self.recording, layout=self.layout)

    @property
    def findings(self) -> list:
        return self.analysis.findings

    @property
    def summary(self) -> dict:
        return self.analysis.summary

    def render(self, path: str, **options: Any) -> str:
        """Draw the recording with Graphviz; the format follows the suffix (svg, png, pdf, dot...)."""
        from .render import render_to_file

        return render_to_file(self.analysis, path, **options)

    def save(self, path: str) -> None:
        """Write the recording as a portable file (JSON + safetensors, no pickle)."""
        from .store import save

        save(self.recording, path, layout=self.layout)


def trace(model: nn.Module | None = None, **options: Any) -> Trace:
    """Record every forward pass of `model` run inside the `with` block.

    Options: `value_budget_bytes` (memory for kept value copies), `mask_budget_bytes` (the
    same for masks and what builds them: 1 GiB or the value budget), `max_passes` (record
    only the first N forward passes), `layout` ("batch-first" or "seq-first": overrides what
    the forward pass's own evidence says about how to read
    the model's float inputs).
    """
    return Trace(model, **options)
