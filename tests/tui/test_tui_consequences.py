"""A mistake's consequences (issue 20, item 7): listed under their cause, counted once, each a jump.

zoo:mask_polarity_lengths: one inverted padding mask (the masked_fill, #17, line 37) leaves
rows with no key (fully-masked-row, at the same op) and makes the softmax NaN (nan, #18, line 38).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from textual.widgets import Static
from tui_support import SIZE, traced

from tracer.findings import Witness
from tui.app import ScopeApp
from tui.session import Session
from tui.widgets.findings_list import FindingsList
from tui.widgets.module_tree import ModuleTree
from tui.widgets.op_details import OpDetails
from tui.widgets.op_timeline import OpTimeline

MODEL = "zoo:mask_polarity_lengths"


def flat(text: str) -> str:
    """The pane's text on one line: it wraps long lines."""
    return " ".join(text.split())


def option_texts(findings: FindingsList) -> list[str]:
    """Each option's text; a consequence's is indented (a Rich `Padding` around it)."""
    prompts = (findings.get_option_at_index(i).prompt for i in range(findings.option_count))
    return [flat(str(getattr(prompt, "renderable", prompt))) for prompt in prompts]


def test_a_consequence_apart_from_its_cause_is_indexed_at_its_own_op() -> None:
    session = Session(traced(MODEL), MODEL)
    [cause] = session.findings
    assert [c.code for c in cause.consequences] == ["fully-masked-row", "nan"]
    # the empty rows sit at the cause's own op (told under it there); the NaN at the softmax
    assert session.consequences_at == {18: [(cause.consequences[1], cause)]}
    assert session.events[18].op == "softmax" and 18 not in session.findings_at
    assert session.finding_events == [17] and session.in_attention(18)


async def test_consequences_are_listed_under_their_cause_and_counted_once(
        scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app(MODEL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        findings = app.screen.query_one(FindingsList)
        texts = option_texts(findings)
        assert len(texts) == 3
        assert texts[0].startswith("error[mask-polarity] #17 (model):37 the mask hides the real tokens")
        assert texts[1].startswith("↳ consequence [fully-masked-row] #17 line 37 queries at positions 0, 1")
        assert texts[2].startswith("↳ consequence [nan] #18 line 38 softmax turned an infinite input into NaN")
        assert findings.border_title == "findings (1)"  # mistakes, as the text report's summary
        assert "· 1 error, 0 warnings" in str(app.screen.query_one("#status", Static).render())
        assert "●1" in str(app.screen.query_one(ModuleTree).root.label)


async def test_choosing_a_consequence_jumps_to_its_op_and_names_its_cause(
        scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app(MODEL)
    async with app.run_test(size=SIZE) as pilot:
        findings = app.screen.query_one(FindingsList)
        findings.focus()
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # the cause, its empty rows, the NaN
        await pilot.pause()
        assert app.screen.step == 18 and app.focused is findings  # the list keeps the focus
        details = flat(app.screen.query_one(OpDetails).text())
        assert "consequence [nan] softmax turned an infinite input into NaN" in details
        assert "caused by error[mask-polarity] at mask_polarity_lengths.py:37 (#17): the mask hides" in details
        assert "note: the -inf written here: mask_polarity_lengths.py:37" in details  # the NaN's own notes
        assert "error[" not in details.replace("caused by error[", "")  # told as a consequence, not a finding
        timeline = app.screen.query_one(OpTimeline)
        rows = [timeline.render_line(y).text.split() for y in range(timeline.scrollable_content_region.height)]
        assert ["●", "17", "masked_fill"] in [row[:3] for row in rows]  # the mistake
        assert ["○", "18", "softmax"] in [row[:3] for row in rows]  # where only its consequence sits
        await pilot.press("f")  # `f` visits mistakes: none after the NaN's op
        assert app.screen.step == 18
        await pilot.press("F")
        assert app.screen.step == 17


async def test_the_cause_explains_its_consequences(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app(MODEL)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        details = flat(app.screen.query_one(OpDetails).text())
        rows = details.index("consequence [fully-masked-row] line 37 (#17): queries at positions")
        nan = details.index("consequence [nan] line 38 (#18): softmax turned an infinite input")
        line = details.index("out = (scores.softmax(dim=-1) @ v).transpose(1, 2)", nan)  # the NaN's own line
        assert details.index("error[mask-polarity]") < rows < nan < line < details.index("proof: changing")
        assert details.count("consequence [") == 2  # each once


async def test_a_consequence_proof_shows_and_one_without_an_op_stays_put() -> None:
    """No zoo consequence carries its own witness or lacks an op today: both are made here."""
    trace = traced(MODEL)
    [cause] = trace.analysis.findings
    proven = replace(cause.consequences[1], witness=Witness("padding", "the padded positions of mels",
                                                            "the output at position 5 of sample 2", 0.5))
    nowhere = replace(cause.consequences[0], code="nan", file="", line=0, event=None)
    app = ScopeApp(trace, MODEL)
    app.session.analysis = replace(trace.analysis, findings=[replace(cause, consequences=(proven, nowhere))])
    async with app.run_test(size=SIZE) as pilot:
        findings = app.screen.query_one(FindingsList)
        texts = option_texts(findings)
        assert texts[1].endswith("proof: changing the padded positions of mels moved the output at position 5 "
                                 "of sample 2 by 0.5")
        assert texts[2].startswith("↳ consequence [nan] no op line 0")
        await pilot.press("f")
        details = flat(app.screen.query_one(OpDetails).text())
        assert "(#18): softmax turned an infinite input into NaN" in details
        assert "proof: changing the padded positions of mels moved the output at position 5 of sample 2 by 0.5" in details
        findings.focus()
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.screen.step == 17  # nothing to jump to: stays, with a notice
