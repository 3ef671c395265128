"""The stepping rules, without an app: step over / into / out, the jump lists, search."""

from __future__ import annotations

from tui_support import traced

from tui.session import Session


def session(spec: str) -> Session:
    return Session(traced(spec), spec)


def test_step_over_runs_child_modules_through() -> None:
    # ref_encoder_postnorm: #2 transpose in layers.0.self_attn, #3 linear inside its w_k, #4 view.
    steps = session("zoo:ref_encoder_postnorm")
    assert [steps.events[i].module for i in (2, 3, 4)] == ["layers.0.self_attn", "layers.0.self_attn.w_k", "layers.0.self_attn"]
    assert steps.step_over(2) == 4
    # from the residual add of layers.0, the whole norm1 and ffn calls are run through
    residual = next(e.index for e in steps.events if e.module == "layers.0" and e.op == "add")
    landed = steps.step_over(residual)
    assert steps.events[landed].module == "layers.0"
    assert all(steps.events[i].module.startswith("layers.0.") for i in range(residual + 1, landed))


def test_step_over_at_the_top_level_stops_at_each_top_level_op_and_call() -> None:
    steps = session("zoo:ref_encoder_decoder")
    path, index = [0], 0
    while (index := steps.step_over(index)) is not None:
        path.append(index)
    starts = {c.first_event for c in steps.calls if c.depth == 1 and c.first_event < c.end_event}
    roots = {e.index for e in steps.events if e.module == ""}
    assert set(path) == starts | roots  # every top-level statement, in order, none skipped
    assert path == sorted(path) and path[-1] == steps.calls[-1].first_event  # ends at the vocabulary projection
    encoder = next(c for c in steps.calls if c.path == "encoder")
    assert steps.step_over(encoder.first_event) == encoder.end_event  # a top-level call is one step


def test_step_into_enters_the_next_child_call_and_out_leaves_it() -> None:
    steps = session("zoo:ref_encoder_postnorm")
    assert steps.step_into(2) == 3
    residual = next(e.index for e in steps.events if e.module == "layers.0" and e.op == "add")
    inside = steps.step_into(residual)
    assert inside == residual + 1 and steps.events[inside].module == "layers.0.norm1"
    norm = steps.call_of(inside)
    assert steps.step_out(inside + 1) == norm.end_event
    assert steps.events[norm.end_event].module.startswith("layers.0.ffn")


def test_step_out_at_top_level_has_nowhere_to_go() -> None:
    steps = session("zoo:softmax_axis_query")
    top = next(e.index for e in steps.events if e.module == "")
    assert steps.step_out(top) is None


def test_jump_lists() -> None:
    steps = session("zoo:ok_einsum_causal")
    ops = {i: steps.events[i].op for i in range(len(steps.events))}
    assert [ops[i] for i in steps.softmax_events] == ["softmax"]
    assert "masked_fill" in [ops[i] for i in steps.mask_events]
    assert "triu" in [ops[i] for i in steps.mask_events]
    assert ops[steps.block_starts[0]] == "einsum"
    assert steps.after(steps.softmax_events, 0) == steps.softmax_events[0]
    assert steps.before(steps.softmax_events, 0) is None


def test_finding_points_at_the_flagged_softmax() -> None:
    steps = session("zoo:softmax_axis_query")
    assert len(steps.finding_events) == 1
    event = steps.events[steps.finding_events[0]]
    assert event.op == "softmax" and event.kwargs.get("dim") == -2
    assert steps.findings_at[event.index][0].code == "softmax-axis"


def test_search_wraps_and_matches_modules_and_types() -> None:
    steps = session("zoo:softmax_axis_query")
    first = steps.search("softmax", 0)
    assert steps.events[first].op == "softmax"
    assert steps.search("softmax", first) == first  # wraps around to itself
    assert steps.events[steps.search("out_proj", 0)].module == "out_proj"
    assert steps.events[steps.search("linear", 0)].op == "linear"
    assert steps.search("no-such-thing", 0) is None


def test_module_nodes_count_calls_and_flags() -> None:
    steps = session("zoo:softmax_axis_query")
    assert steps.modules[""].findings == 1
    assert steps.modules["q_proj"].calls == 1 and steps.modules["q_proj"].type_name == "Linear"
