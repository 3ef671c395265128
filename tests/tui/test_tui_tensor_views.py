"""The tensor views: the attention heatmap (recorded and recomputed), LayerNorm rows, values."""

from __future__ import annotations

import math
from typing import Callable

import torch
import torch.nn.functional as F
from tui_support import SIZE, traced

from tui.app import ScopeApp
from tui.screens.tensor import TensorScreen
from tui.session import Session
from tui.tensors import attention_table, layernorm_input, layernorm_view
from tui.widgets.heatmap import Heatmap
from tui.widgets.layernorm_table import LayerNormTable
from tui.widgets.value_table import ValueTable


def causal(size: int) -> torch.Tensor:
    return torch.ones(size, size, dtype=torch.bool).triu(1)


async def test_heatmap_shows_masked_cells_of_a_causal_model(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:ok_einsum_causal")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TensorScreen) and screen.view == "weights"
        heatmap = screen.query_one(Heatmap)
        data = heatmap.table
        assert data is not None and data.values is not None and data.hidden is not None
        assert torch.equal(data.hidden, causal(6))
        assert bool((data.values[data.hidden] == 0).all())
        assert torch.allclose(data.row_sums, torch.ones(6, dtype=torch.float64))
        assert "░░░░" in app.export_screenshot()  # masked cells have their own glyph
        # batch item and head keys pick another slice of the (B=2, H=4) table
        await pilot.press("b", "h", "h")
        assert (heatmap.batch, heatmap.head) == (1, 2)
        weights = traced("zoo:ok_einsum_causal").recording.values[screen.session.block_of[screen.index].weights.vid]
        assert torch.equal(heatmap.table.values, weights[1, 2].double())
        assert torch.equal(heatmap.table.hidden, causal(6))
        await pilot.press("B", "B")  # wraps around
        assert heatmap.batch == 1
        await pilot.press("escape")
        assert not isinstance(app.screen, TensorScreen)


def test_sdpa_weights_are_recomputed_from_q_k_and_the_causal_flag() -> None:
    trace = traced("zoo:ok_sdpa_causal")
    session = Session(trace)
    block = session.analysis.blocks[0]
    event = trace.recording.events[block.norm_event]
    q, k = (trace.recording.values[event.inputs[i].vid] for i in (0, 1))
    data = attention_table(session, block, 1, 1)
    expected = torch.softmax((q[1, 1] @ k[1, 1].T / math.sqrt(q.shape[-1])).masked_fill(causal(6), -math.inf), -1)
    assert torch.allclose(data.values, expected.double(), atol=1e-6)
    assert torch.equal(data.hidden, causal(6))
    assert "computed for display" in data.notes[0]
    # and the recomputed weights reproduce the op's recorded output
    v = trace.recording.values[event.inputs[2].vid]
    assert torch.allclose((data.values @ v[1, 1].double()).float(), trace.recording.values[event.outputs[0].vid][1, 1], atol=1e-5)


def test_sdpa_without_kept_values_says_so() -> None:
    trace = traced("zoo:ok_sdpa_causal")
    session = Session(trace)
    block = session.analysis.blocks[0]
    event = trace.recording.events[block.norm_event]
    kept = trace.recording.values.pop(event.inputs[0].vid)
    try:
        data = attention_table(session, block, 0, 0)
    finally:
        trace.recording.values[event.inputs[0].vid] = kept
    assert data.values is None and "not kept" in data.notes[0]
    assert data.hidden is not None  # the mask pattern is still known


async def test_softmax_over_the_query_axis_shows_rows_that_do_not_sum_to_one(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:softmax_axis_query")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f", "v")
        await pilot.pause()
        data = app.screen.query_one(Heatmap).table
        assert not torch.allclose(data.row_sums, torch.ones_like(data.row_sums))
        assert torch.allclose(data.values.sum(dim=0), torch.ones(5, dtype=torch.float64))  # columns do
        await pilot.press("v")  # the next view of this op: its values
        await pilot.pause()
        assert app.screen.view == "values" and app.screen.query_one(ValueTable)


def test_layernorm_rows_follow_the_course_formula() -> None:
    trace = traced("zoo:ok_prenorm_block")
    session = Session(trace)
    index = next(e.index for e in trace.recording.events if e.op == "layer_norm")
    given = layernorm_input(session, index)
    assert not isinstance(given, str)
    rows, picks = layernorm_view(given, 1)
    x = given.x[1].double()
    expected = F.layer_norm(x, x.shape[-1:], given.gamma.double(), given.beta.double(), given.eps)
    assert torch.allclose(rows.output, expected, atol=1e-9)
    assert torch.allclose(rows.var, x.var(dim=-1, unbiased=False))
    assert any("max |difference|" in note for note in rows.notes)


async def test_layernorm_view_of_a_hand_written_layernorm_module(scope_app: Callable[[str], ScopeApp]) -> None:
    app = scope_app("zoo:ref_encoder_postnorm")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"norm1", "enter", "v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TensorScreen) and screen.view == "layernorm"
        table = screen.query_one(LayerNormTable)
        rows, _ = layernorm_view(table.given, 0)
        assert torch.allclose(rows.mean, table.given.x[0].double().mean(-1))
        gap = next(note for note in rows.notes if "max |difference|" in note)
        assert float(gap.rsplit(" ", 1)[1]) < 1e-5  # the formula reproduces the recorded output
