"""The screen at every size: which op columns show, a source line never wraps, help says what follows."""

from __future__ import annotations

from typing import Callable

import pytest
from rich.console import Console
from textual.widget import Widget
from textual.widgets import Static

from tui.app import ScopeApp
from tui.screens.help import END, MORE, HelpScreen
from tui.widgets.findings_list import MESSAGE_LINES, FindingPrompt, FindingsList
from tui.widgets.op_details import OpDetails
from tui.widgets.op_timeline import MODULE_MIN, PADDING, OpTimeline, fit_columns
from tui.widgets.source_view import SourceView


def test_columns_drop_by_priority() -> None:
    narrow = fit_columns(50, number=5, op=11, axes_wanted=44, module_wanted=31)
    assert (narrow.module, narrow.line) == (0, 0) and narrow.axes == 50 - 5 - 11 - 6 * PADDING
    wide = fit_columns(84, number=5, op=11, axes_wanted=44, module_wanted=31)
    room = 84 - 5 - 11 - wide.line - 10 * PADDING
    assert wide.line and wide.module == MODULE_MIN and wide.axes == room - MODULE_MIN  # the axes widen first
    roomy = fit_columns(200, number=5, op=11, axes_wanted=44, module_wanted=31)
    assert (roomy.axes, roomy.module) == (44, 31)


@pytest.mark.parametrize("size, module_shown", [((80, 24), False), ((120, 40), True), ((200, 50), True)])
async def test_op_table_fits_its_pane(scope_app: Callable[[str], ScopeApp], size: tuple[int, int],
                                      module_shown: bool) -> None:
    app = scope_app("zoo:ref_encoder_decoder")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        timeline = app.screen.query_one(OpTimeline)
        fit = timeline.columns_fit
        assert fit is not None and fit.number and fit.op and fit.axes
        assert bool(fit.module and fit.line) == module_shown
        used = sum(width + 2 * PADDING for _, width in fit.shown())
        assert used <= timeline.scrollable_content_region.width  # nothing to scroll sideways to
        assert timeline.virtual_size.width <= timeline.scrollable_content_region.width


@pytest.mark.parametrize("size, whole", [((80, 24), False), ((120, 40), True), ((200, 50), True)])
async def test_source_lines_are_cut_not_wrapped(scope_app: Callable[[str], ScopeApp], size: tuple[int, int],
                                                whole: bool) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=size) as pilot:
        await pilot.press("f")
        await pilot.pause()
        source = app.screen.query_one(SourceView)
        width = source.scrollable_content_region.width
        lines = [source.render_line(y) for y in range(source.scrollable_content_region.height)]
        assert all(line.cell_length == width for line in lines)
        [current] = [line.text for line in lines if line.text.startswith("❱32")]
        assert "weights = torch.softmax(scores, dim=-2)" in current
        assert current.rstrip().endswith("…") != whole  # the 65-character line: whole only when it fits
        assert (width >= 65 + len("❱32 ")) == whole


FLAGGED = 'att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))'


def shown(source: SourceView, number: int) -> str:
    """The text of source line `number` as the pane draws it now."""
    lines = [source.render_line(y).text for y in range(source.scrollable_content_region.height)]
    return next(line for line in lines if line.lstrip("❱ ").startswith(f"{number} "))


async def test_flagged_expression_whole_at_120_and_source_scrolls_sideways(
        scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:causal_diagonal_buffer_init")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f")  # the masked_fill of line 37, flagged
        await pilot.pause()
        source = app.screen.query_one(SourceView)
        line = shown(source, 37)
        assert FLAGGED in line and line.rstrip().endswith("…")  # the expression whole, its comment cut
        await pilot.press("tab", "tab")  # ops -> current op -> source
        assert app.focused is source
        await pilot.press("right", "right", "right", "right", "right")
        await pilot.pause()
        scrolled = shown(source, 37)
        assert scrolled.split(" ", 1)[1].startswith("…") and scrolled.rstrip().endswith("# BUG: causal-diagonal")
        await pilot.press("home")
        await pilot.pause()
        assert shown(source, 37) == line
        await pilot.press("right")
        app.screen.step = 12  # another op: its lines start at the left again
        await pilot.pause()
        assert source.shift == 0 and FLAGGED in shown(source, 37)


async def test_current_op_keeps_room_at_80x24(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:causal_diagonal_buffer_init")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await pilot.pause()
        screen = app.screen
        assert screen.query_one(OpDetails).scrollable_content_region.height >= 8  # it was 4
        assert screen.query_one(SourceView).scrollable_content_region.height >= 3
        assert screen.query_one(OpTimeline).scrollable_content_region.height >= 5  # header and 4 ops


async def test_help_scrolls_and_says_what_follows(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        hint = app.screen.query_one("#help-hint", Static)
        assert str(hint.render()) == MORE
        await pilot.press("end")
        for _ in range(30):  # the scroll may be animated
            await pilot.pause()
            if str(hint.render()) == END:
                break
        assert str(hint.render()) == END
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


def pane_lines(widget: Widget) -> list[str]:
    """The text a pane draws now, one string per row of its content."""
    return [widget.render_line(y).text.rstrip() for y in range(widget.scrollable_content_region.height)]


def test_a_finding_label_too_wide_for_its_pane_breaks_before_the_code() -> None:
    """The longest code, at the narrow pane's 20 columns: `warning` and `[layernorm-variance]` each keep
    a line; the location and the message follow, every line within the width."""
    prompt = FindingPrompt(("warning", "[layernorm-variance]"), "bold yellow", "#12 encoder.layers.0.norm1:40",
                           "a hand-written layer norm uses the unbiased (d-1) variance " * 3)
    console = Console(width=20, color_system=None)
    with console.capture() as captured:
        console.print(prompt)
    lines = captured.get().rstrip("\n").split("\n")
    assert lines[:2] == ["warning", "[layernorm-variance]"]
    assert all(len(line) <= 20 for line in lines)
    assert len(lines) == 3 + MESSAGE_LINES and lines[-1].endswith("…")  # the message cut, whole in the details
    assert str(prompt).startswith("warning[layernorm-variance] #12 encoder.layers.0.norm1:40\n")
    wide = Console(width=60, color_system=None)
    with wide.capture() as captured:
        wide.print(prompt)
    assert captured.get().split("\n")[0] == "warning[layernorm-variance] #12 encoder.layers.0.norm1:40"


async def test_findings_pane_never_splits_a_code_at_80x24(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:causal_diagonal_triu_zero")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        findings = app.screen.query_one(FindingsList)
        assert findings.scrollable_content_region.width >= len("[mask-after-softmax]")  # the longest code
        lines = pane_lines(findings)
        assert "error" in lines and "[causal-diagonal]" in lines  # was `error[causal-diagon` / `al] #15 ...`
        assert not any(line.endswith("error[causal-diagon") for line in lines)


async def test_findings_pane_is_readable_at_120x40(scope_app: Callable[[str], ScopeApp]) -> None:
    """It was 26 columns wide and one finding took 9 lines: 1.5 findings in view."""
    app = scope_app("zoo:mask_polarity_lengths")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        findings = app.screen.query_one(FindingsList)
        assert findings.scrollable_content_region.width >= 30
        lines = pane_lines(findings)
        assert lines[0] == "error[mask-polarity]" and lines[1] == "#17 (model):37"
        assert lines[2].startswith("the mask hides the real tokens")
        consequences = [number for number, line in enumerate(lines) if line.lstrip().startswith("↳ consequence")]
        assert consequences[0] == 2 + MESSAGE_LINES  # the finding in 5 lines
        assert len(consequences) == 2  # the cause and both its consequences in view


async def test_enter_on_a_finding_keeps_the_focus_in_the_list(scope_app: Callable[[str], ScopeApp]) -> None:
    """↓ after Enter goes on to the next entry of the list, not to the next op of the table."""
    app = scope_app("zoo:mask_polarity_lengths")
    async with app.run_test(size=(120, 40)) as pilot:
        findings = app.screen.query_one(FindingsList)
        findings.focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.step == 17 and app.focused is findings and findings.highlighted == 0
        await pilot.press("down", "down")
        assert findings.highlighted == 2 and app.screen.step == 17  # moving in the list does not step
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.step == 18 and app.focused is findings  # the NaN's softmax
        await pilot.press("n")  # the stepping keys still step from the op
        assert app.screen.step == 19
