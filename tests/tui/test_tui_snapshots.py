"""Snapshot tests (pytest-textual-snapshot): the main screen, the heatmap and the demo.

Grouped per feature; fixed terminal sizes; every app is built on a zoo model traced from a
fixed seed. Regenerate after an intended change with `pytest tests/tui --snapshot-update`
and look at the report before committing the new SVGs.
"""

from __future__ import annotations

from tui_support import SIZE, traced

from tui.app import DemoApp, ScopeApp
from tui.demo_math import DemoSettings


class TestMainScreen:
    def test_flagged_softmax_selected(self, snap_compare) -> None:
        """The finding jump (`f`) on softmax_axis_query: details name the query axis, source line marked."""
        app = ScopeApp(traced("zoo:softmax_axis_query"), "zoo:softmax_axis_query")
        assert snap_compare(app, press=["f"], terminal_size=SIZE)

    def test_small_terminal(self, snap_compare) -> None:
        """80×24: the narrow layout, every key still listed."""
        app = ScopeApp(traced("zoo:softmax_axis_query"), "zoo:softmax_axis_query")
        assert snap_compare(app, press=["f"], terminal_size=(80, 24))


class TestHeatmap:
    def test_causal_einsum_weights(self, snap_compare) -> None:
        """ok_einsum_causal, batch item 1, head 2: masked cells drawn apart from small weights, row sums 1."""
        app = ScopeApp(traced("zoo:ok_einsum_causal"), "zoo:ok_einsum_causal")
        assert snap_compare(app, press=["s", "v", "b", "h", "h"], terminal_size=SIZE)


class TestDemo:
    def test_causal_and_padding(self, snap_compare) -> None:
        """The demo with the causal and padding masks on, T=5."""
        app = DemoApp(DemoSettings(length=5))
        assert snap_compare(app, press=["c", "p"], terminal_size=SIZE)
