"""Snapshot tests (pytest-textual-snapshot): the main screen, the heatmap, the help and the demo,
each at 80×24, 120×40 and 200×50.

Grouped per feature; every app is built on a zoo model traced from a fixed seed. Regenerate
after an intended change with `pytest tests/tui --snapshot-update`, and look at every new
SVG before committing it (docs/tui.md says how to turn them into PNGs).
"""

from __future__ import annotations

import pytest
from tui_support import traced

from tui.app import DemoApp, ScopeApp
from tui.demo_math import DemoSettings

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40"), pytest.param((200, 50), id="200x50")]


class TestMainScreen:
    @pytest.mark.parametrize("size", SIZES)
    def test_flagged_softmax_selected(self, snap_compare, size: tuple[int, int]) -> None:
        """The finding jump (`f`) on softmax_axis_query: the op table without sideways scrolling,
        details name the query axis, the source line marked and cut, not wrapped."""
        app = ScopeApp(traced("zoo:softmax_axis_query"), "zoo:softmax_axis_query")
        assert snap_compare(app, press=["f"], terminal_size=size)

    @pytest.mark.parametrize("size", SIZES)
    def test_encoder_decoder_attention(self, snap_compare, size: tuple[int, int]) -> None:
        """A two-stack model inside its first attention block (`s`): long axis names and module
        paths shorten to fit; module and line columns only where there is room."""
        app = ScopeApp(traced("zoo:ref_encoder_decoder"), "zoo:ref_encoder_decoder")
        assert snap_compare(app, press=["s"], terminal_size=size)

    @pytest.mark.parametrize("size", SIZES)
    def test_consequence_chosen_in_the_findings(self, snap_compare, size: tuple[int, int]) -> None:
        """mask_polarity_lengths: the NaN under its cause in the findings (indented, not counted),
        chosen there (shift+Tab, ↓↓, Enter): its softmax marked ○, the details name the cause, the
        focus still in the list; each finding's label whole, its message cut after three lines."""
        app = ScopeApp(traced("zoo:mask_polarity_lengths"), "zoo:mask_polarity_lengths")
        assert snap_compare(app, press=["shift+tab", "down", "down", "enter"], terminal_size=size)


class TestHeatmap:
    @pytest.mark.parametrize("size", SIZES)
    def test_causal_einsum_weights(self, snap_compare, size: tuple[int, int]) -> None:
        """ok_einsum_causal, batch item 1, head 2: masked cells drawn apart from small weights, row sums 1."""
        app = ScopeApp(traced("zoo:ok_einsum_causal"), "zoo:ok_einsum_causal")
        assert snap_compare(app, press=["s", "v", "b", "h", "h"], terminal_size=size)


class TestHelp:
    @pytest.mark.parametrize("size", SIZES)
    def test_debugger_help(self, snap_compare, size: tuple[int, int]) -> None:
        """The debugger's own keys; where the list is longer than the box, the hint says more follows."""
        app = ScopeApp(traced("zoo:softmax_axis_query"), "zoo:softmax_axis_query")
        assert snap_compare(app, press=["question_mark"], terminal_size=size)

    def test_help_scrolled_to_its_end(self, snap_compare) -> None:
        """At 80×24 the help scrolls; at its end the hint says so."""
        app = ScopeApp(traced("zoo:softmax_axis_query"), "zoo:softmax_axis_query")
        assert snap_compare(app, press=["question_mark", "end"], terminal_size=(80, 24))

    def test_tensor_view_help(self, snap_compare) -> None:
        """The tensor views have their own help: batch, head, pan, next view."""
        app = ScopeApp(traced("zoo:softmax_axis_query"), "zoo:softmax_axis_query")
        assert snap_compare(app, press=["f", "v", "question_mark"], terminal_size=(120, 40))


class TestDemo:
    @pytest.mark.parametrize("size", SIZES)
    def test_causal_and_padding(self, snap_compare, size: tuple[int, int]) -> None:
        """The demo with the causal and padding masks on, T=5."""
        app = DemoApp(DemoSettings(length=5))
        assert snap_compare(app, press=["c", "p"], terminal_size=size)

    def test_demo_help(self, snap_compare) -> None:
        """The demo's help lists the demo's keys and explains the page, not the debugger."""
        app = DemoApp(DemoSettings(length=5))
        assert snap_compare(app, press=["question_mark"], terminal_size=(120, 40))
