"""Driving the debugger with the Pilot: every stepping key lands on the op it promises."""

from __future__ import annotations

from typing import Callable

from textual.widgets import Input
from tui_support import SIZE, traced

from tui.app import ScopeApp
from tui.screens.main import MainScreen
from tui.widgets.findings_list import FindingsList
from tui.widgets.module_tree import ModuleTree
from tui.widgets.op_details import OpDetails
from tui.widgets.op_timeline import OpTimeline


async def test_next_prev_over_into_out(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:ref_encoder_postnorm")
    events = traced("zoo:ref_encoder_postnorm").recording.events
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen) and screen.step == 0
        await pilot.press("n", "n")
        assert screen.step == 2
        await pilot.press("p")
        assert screen.step == 1
        await pilot.press("n", "o")  # over w_k's linear (#3)
        assert screen.step == 4
        await pilot.press("p", "p", "i")  # from #2 into w_k
        assert screen.step == 3 and events[3].module == "layers.0.self_attn.w_k"
        await pilot.press("u")  # out of w_k
        assert screen.step == 4
        # the timeline's cursor and the details follow the step
        assert app.screen.query_one(OpTimeline).cursor_row == 4
        assert app.screen.query_one(OpDetails).text().startswith("#4 view")


async def test_step_over_moves_at_the_top_level(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:ref_encoder_decoder")
    events = traced("zoo:ref_encoder_decoder").recording.events
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("o")  # from the padding test (#0) to the source embedding's call
        assert screen.step == 1 and events[1].module == "src_embedding"
        last_root = max(e.index for e in events if e.module == "")
        screen.step = last_root  # the root's last own op: the decoder still runs after it
        await pilot.press("o")
        assert screen.step == last_root + 1 and events[screen.step].module == "tgt_embedding"


async def settled(pilot, condition: Callable[[], bool], turns: int = 50) -> bool:
    """Let the app process its messages until `condition` holds (False after `turns` pauses)."""
    for _ in range(turns):
        if condition():
            return True
        await pilot.pause()
    return condition()


async def test_timeline_cursor_moves_the_step(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=SIZE) as pilot:
        # keys reach the op list only once it has the focus, which a busy machine gives it later
        assert await settled(pilot, lambda: isinstance(app.focused, OpTimeline))
        await pilot.press("down", "down", "down")
        # the cursor's message reaches the screen a few event-loop turns later (more on a busy machine)
        assert await settled(pilot, lambda: app.screen.step == 3)
        await pilot.press("ctrl+end")
        last = len(traced("zoo:softmax_axis_query").recording.events) - 1
        assert await settled(pilot, lambda: app.screen.step == last)


async def test_finding_jump_lands_on_the_flagged_softmax(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        event = traced("zoo:softmax_axis_query").recording.events[app.screen.step]
        assert event.op == "softmax" and event.kwargs == {"dim": -2}
        details = app.screen.query_one(OpDetails).text()
        assert "dim=-2 → Tq=5 (query positions)" in details
        assert "error[softmax-axis]" in details
        await pilot.press("F")  # no earlier finding: stays
        assert app.screen.step == event.index


async def test_selecting_a_finding_in_the_list_jumps_to_its_op(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=SIZE) as pilot:
        findings = app.screen.query_one(FindingsList)
        findings.focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert traced("zoo:softmax_axis_query").recording.events[app.screen.step].op == "softmax"
        assert app.focused is findings  # ↓ and Enter go on to the next finding


async def test_softmax_mask_block_jumps(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:ok_einsum_causal")
    events = traced("zoo:ok_einsum_causal").recording.events
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert events[app.screen.step].op == "softmax"
        await pilot.press("A")
        assert events[app.screen.step].op == "einsum"  # the block starts at the query-key product
        await pilot.press("m")
        assert events[app.screen.step].op == "triu"
        await pilot.press("m")
        assert events[app.screen.step].op == "masked_fill"
        await pilot.press("M", "a")
        assert events[app.screen.step].op == "triu"  # no later block: stays, with a notice


async def test_goto_and_search(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    events = traced("zoo:softmax_axis_query").recording.events
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert isinstance(app.focused, Input)
        await pilot.press("1", "0", "enter")
        assert app.screen.step == 10 and events[10].op == "matmul"
        await pilot.press("slash", *"out_proj", "enter")
        assert events[app.screen.step].module == "out_proj"
        await pilot.press("slash", "escape")  # cancelled: stays
        assert events[app.screen.step].module == "out_proj"
        await pilot.press("g", "x", "enter")  # not a number: stays
        assert events[app.screen.step].module == "out_proj"


async def test_attention_filter_and_steps_outside_it(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    events = traced("zoo:softmax_axis_query").recording.events
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        timeline = app.screen.query_one(OpTimeline)
        assert app.screen.attention_only and timeline.row_count < len(events)
        assert all(events[i].op not in ("linear", "view") for i in timeline.shown)
        # op 0 (a projection) is filtered out: the step moves to the first shown op
        assert events[app.screen.step].op == "matmul"
        await pilot.press("n")
        assert events[app.screen.step].op == "div"  # n walks the shown rows only
        await pilot.press("g", "0", "enter")  # a hidden op: the filter opens up
        assert app.screen.step == 0 and not app.screen.attention_only


async def test_module_tree_follows_and_jumps(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=SIZE) as pilot:
        tree = app.screen.query_one(ModuleTree)
        await pilot.press("g", "3", "enter")
        await pilot.pause()
        assert tree.cursor_node is not None and tree.cursor_node.data == "k_proj"
        tree.focus()
        await pilot.press("down", "enter")  # v_proj
        await pilot.pause()
        assert traced("zoo:softmax_axis_query").recording.events[app.screen.step].module == "v_proj"


async def test_a_finding_shows_where_its_faulty_value_was_built(scope_app: Callable[[str], ScopeApp]) -> None:
    """The notes of the text report (issue 10's causes) are in the details of the flagged op too."""
    app = scope_app("zoo:causal_diagonal_buffer_init")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")  # to the first finding
        details = " ".join(app.screen.query_one(OpDetails).text().split())  # the pane wraps long lines
        assert "note: the buffer 'mask' built here: causal_diagonal_buffer_init.py:27" in details
        assert "torch.tril(torch.ones(block_size, block_size), diagonal=-1)" in details


async def test_a_witnessed_finding_shows_its_proof_and_the_divergence_path(scope_app: Callable[[str], ScopeApp]) -> None:
    """A finding proven by running the model again shows the proof and the ops the change passed, first one marked."""
    app = scope_app("zoo:causal_leak_static_kv_cache")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        details = " ".join(app.screen.query_one(OpDetails).text().split())
        assert "proof: changing the tokens after position 3 of ids moved the output at position 3" in details
        assert "the change passed: → #20 masked_fill at causal_leak_static_kv_cache.py:36 #21 softmax" in details
