"""The recorder (DESIGN.md room 1): what `with tracer.trace(model) as t: model(x)` records,
that recording never changes the model's results or state, and that it always cleans up.

Source lines are found by markers (`# <name>`) at the end of this file's lines, so that the
expected `file:line` of an event is read from the source, never written down by hand.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import weakref
from pathlib import Path
from typing import Any, Optional

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.modules import module as module_globals

import tracer
from models.reference import EncoderDecoderTransformer, EncoderLayer

B, T, D, H = 2, 5, 8, 2
DH = D // H
THIS_FILE = Path(__file__).resolve()
TORCH_DIR = str(Path(torch.__file__).resolve().parent)


def line_of(marker: str) -> int:
    """The line of this file that ends with the comment `# <marker>`."""
    for number, text in enumerate(THIS_FILE.read_text().splitlines(), 1):
        if text.rstrip().endswith(f"# <{marker}>"):
            return number
    raise LookupError(marker)


def same_file(path: str) -> bool:
    return bool(path) and Path(path).resolve() == THIS_FILE


# --------------------------------------------------------------------------- models used here
class Block(nn.Module):
    """Every op family the recorder must name and describe, each on its own marked line."""

    def __init__(self, d: int = D, heads: int = H) -> None:
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        assert x.size(0) == b and x.dim() == 3 and x.numel() == b * t * d and x.dtype == torch.float32
        h = self.proj(x)  # <linear>
        q = h.view(b, t, self.heads, d // self.heads)  # <view>
        q = q.transpose(1, 2)  # <transpose>
        s = q @ q.transpose(-2, -1)  # <matmul>
        s.masked_fill_(mask, -1e9)  # <masked_fill_>
        w1 = F.softmax(s, dim=-1)  # <F.softmax>
        w2 = torch.softmax(s, -1)  # <torch.softmax>
        w3 = s.softmax(-1)  # <Tensor.softmax>
        c = torch.einsum("bhqk,bhkd->bhqd", w1 + w2 + w3, q)  # <einsum>
        a = F.scaled_dot_product_attention(q, q, q, is_causal=True)  # <sdpa>
        merged = (c + a).transpose(1, 2).reshape(b, t, d)
        return self.norm(merged).to(torch.float64)  # <layer_norm>


class Outer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.block = Block()
        self.head = nn.Linear(D, 3, dtype=torch.float64)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.head(self.block(x, mask))


def causal_mask(length: int = T) -> torch.Tensor:
    return torch.ones(length, length, dtype=torch.bool).triu(1)


BLOCK_OPS = [
    "linear", "view", "transpose", "transpose", "matmul", "masked_fill", "softmax", "softmax",
    "softmax", "add", "add", "einsum", "scaled_dot_product_attention", "add", "transpose",
    "reshape", "layer_norm", "to",
]


@pytest.fixture()
def outer_trace():
    torch.manual_seed(0)
    model = Outer()
    x = torch.randn(B, T, D)
    with tracer.trace(model) as t:
        out = model(x, mask=causal_mask())
    return model, t, out


def one(events: list, op: str, nth: int = 0) -> Any:
    found = [event for event in events if event.op == op]
    assert len(found) > nth, f"no {op} #{nth} among {[e.op for e in events]}"
    return found[nth]


# --------------------------------------------------------------------------- events
def test_ops_have_canonical_names_and_queries_and_nested_calls_are_not_recorded(outer_trace) -> None:
    _, t, _ = outer_trace
    ops = [event.op for event in t.recording.events]
    # .shape, .size(), .dim(), .numel(), .dtype are absent; F.layer_norm / F.softmax are one
    # event each (not also torch.layer_norm / torch._softmax); the head's F.linear closes it.
    assert ops == BLOCK_OPS + ["linear"]
    assert [event.index for event in t.recording.events] == list(range(len(ops)))
    softmaxes = [event.target for event in t.recording.events if event.op == "softmax"]
    assert len(set(softmaxes)) == 3  # three spellings, one canonical name


def test_op_arguments_that_carry_meaning(outer_trace) -> None:
    _, t, _ = outer_trace
    events = t.recording.events
    for nth in range(3):
        assert one(events, "softmax", nth).arg(1, "dim") == -1
    fill = one(events, "masked_fill")
    assert fill.inplace and fill.target.endswith("masked_fill_")
    assert fill.arg(2, "value") == -1e9
    assert fill.tensor_arg(1, "mask").shape == (T, T) and fill.tensor_arg(1, "mask").dtype == "bool"
    assert not any(event.inplace for event in events if event is not fill)
    view = one(events, "view")
    assert list(view.args[1:]) == [B, T, H, DH]
    assert list(one(events, "transpose", 0).args[1:]) == [1, 2]
    assert list(one(events, "transpose", 1).args[1:]) == [-2, -1]
    norm = one(events, "layer_norm")
    assert norm.arg(1, "normalized_shape") == [D]
    assert norm.tensor_arg(2, "weight").shape == (D,)
    assert one(events, "einsum").arg(0, "equation") == "bhqk,bhkd->bhqd"
    sdpa = one(events, "scaled_dot_product_attention")
    assert sdpa.arg(5, "is_causal") is True
    assert one(events, "to").arg(1, "dtype") == "torch.float64"


def test_shapes_and_dtypes(outer_trace) -> None:
    _, t, out = outer_trace
    events = t.recording.events
    shapes = lambda metas: [meta.shape for meta in metas]  # noqa: E731
    linear = one(events, "linear")
    assert shapes(linear.inputs) == [(B, T, D), (D, D), (D,)]
    assert shapes(linear.outputs) == [(B, T, D)]
    assert shapes(one(events, "view").outputs) == [(B, T, H, DH)]
    assert shapes(one(events, "transpose").outputs) == [(B, H, T, DH)]
    matmul = one(events, "matmul")
    assert shapes(matmul.inputs) == [(B, H, T, DH), (B, H, DH, T)]
    assert shapes(matmul.outputs) == [(B, H, T, T)]
    fill = one(events, "masked_fill")
    assert [meta.dtype for meta in fill.inputs] == ["float32", "bool"]
    assert shapes(one(events, "einsum").outputs) == [(B, H, T, DH)]
    assert shapes(one(events, "scaled_dot_product_attention").outputs) == [(B, H, T, DH)]
    cast = one(events, "to")
    assert cast.inputs[0].dtype == "float32" and cast.outputs[0].dtype == "float64"
    head = one(events, "linear", 1)
    assert [meta.dtype for meta in head.inputs] == ["float64"] * 3
    assert head.outputs[0].shape == tuple(out.shape) and head.outputs[0].dtype == "float64"
    assert all(meta.device == "cpu" for event in events for meta in event.inputs + event.outputs)
    assert [meta.shape for meta in t.recording.outputs] == [tuple(out.shape)]
    # A value consumed later is the very value an earlier event produced.
    assert matmul.inputs[0].vid == one(events, "transpose").outputs[0].vid
    # The in-place fill gives the tensor a new value: the softmaxes read the filled scores.
    assert fill.outputs[0].vid != matmul.outputs[0].vid
    assert all(one(events, "softmax", n).inputs[0].vid == fill.outputs[0].vid for n in range(3))


def test_module_path_and_user_source_line(outer_trace) -> None:
    _, t, _ = outer_trace
    events = t.recording.events
    assert one(events, "linear").module == "block.proj"
    assert one(events, "layer_norm").module == "block.norm"
    assert one(events, "softmax").module == "block"
    assert one(events, "linear", 1).module == "head"
    for marker, op, nth in [
        ("linear", "linear", 0), ("view", "view", 0), ("transpose", "transpose", 0),
        ("matmul", "matmul", 0), ("masked_fill_", "masked_fill", 0), ("F.softmax", "softmax", 0),
        ("torch.softmax", "softmax", 1), ("Tensor.softmax", "softmax", 2), ("einsum", "einsum", 0),
        ("sdpa", "scaled_dot_product_attention", 0), ("layer_norm", "layer_norm", 0),
    ]:
        event = one(events, op, nth)
        assert same_file(event.file), (op, event.file)
        assert event.line == line_of(marker), (op, event.location)
    for event in events:
        assert not str(Path(event.file).resolve()).startswith(TORCH_DIR), event.location


def test_module_calls_nesting(outer_trace) -> None:
    _, t, _ = outer_trace
    calls = t.recording.module_calls
    assert [(c.path, c.type_name, c.depth) for c in calls] == [
        ("", "Outer", 0), ("block", "Block", 1), ("block.proj", "Linear", 2),
        ("block.norm", "LayerNorm", 2), ("head", "Linear", 1),
    ]
    by_path = {call.path: call for call in calls}
    assert [by_path[p].parent for p in ("", "block", "block.proj", "block.norm", "head")] == [None, 0, 1, 1, 0]
    events = t.recording.events
    for call in calls:
        inside = events[call.first_event:call.end_event]
        # Every event inside a call ran in that module or below it.
        assert all(e.module == call.path or e.module.startswith(call.path) for e in inside), call.path
        assert not call.raised and call.forward_pass == 0 and call.training
    assert by_path[""].first_event == 0 and by_path[""].end_event == len(events)
    assert [e.op for e in events[by_path["block.proj"].first_event:by_path["block.proj"].end_event]] == ["linear"]
    assert [c.shape for c in by_path["block"].inputs] == [(B, T, D), (T, T)]
    assert [c.shape for c in by_path["head"].outputs] == [(B, T, 3)]
    assert t.recording.forward_passes == 1 and t.recording.root_type == "Outer"


def test_keyword_inputs_are_named_after_forward_parameters(outer_trace) -> None:
    model, t, _ = outer_trace
    inputs = {s.name: s for s in t.recording.sources.values() if s.kind == "input"}
    assert set(inputs) == {"x", "mask"}
    assert inputs["x"].meta.shape == (B, T, D) and inputs["mask"].meta.dtype == "bool"
    params = {s.name for s in t.recording.sources.values() if s.kind == "param"}
    assert params == {name for name, _ in model.named_parameters()}
    assert [meta.vid for meta in t.recording.module_calls[0].inputs] == [inputs["x"].meta.vid, inputs["mask"].meta.vid]
    assert one(t.recording.events, "linear").inputs[0].vid == inputs["x"].meta.vid


@dataclasses.dataclass
class PairOutput:
    logits: torch.Tensor
    extras: tuple


class Nested(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, pair, table, *, scale=None, **options):
        a, (b, c) = pair
        h = self.lin(a + b * c + table["u"] + table["v"][0])
        h = h * scale + options["attention_mask"]
        return PairOutput(h.sum(-1), (h, {"relu": h.relu()}))


def test_nested_inputs_keywords_var_keywords_and_dataclass_outputs() -> None:
    model = Nested()
    args = ((torch.randn(3, 4), [torch.randn(3, 4), torch.randn(3, 4)]), {"u": torch.randn(4), "v": [torch.randn(4)]})
    with tracer.trace(model) as t:
        out = model(*args, scale=torch.tensor(2.0), attention_mask=torch.ones(3, 4))
    inputs = {s.name: s.meta.shape for s in t.recording.sources.values() if s.kind == "input"}
    assert inputs == {
        "pair[0]": (3, 4), "pair[1]": (3, 4), "pair[2]": (3, 4), "table[0]": (4,), "table[1]": (4,),
        "scale": (), "attention_mask": (3, 4),
    }
    assert len(t.recording.module_calls[0].inputs) == 7
    # Outputs are found inside the dataclass, the tuple and the dict, in field order.
    assert [m.shape for m in t.recording.outputs] == [tuple(out.logits.shape), tuple(out.extras[0].shape),
                                                      tuple(out.extras[1]["relu"].shape)]
    producers = t.recording.producers()
    assert [t.recording.events[producers[m.vid]].op for m in t.recording.outputs] == ["sum", "add", "relu"]


class MappingInput(nn.Module):
    def forward(self, batch):
        return batch["ids"].float() * batch["mask"]


def test_mapping_that_is_not_a_dict_as_input() -> None:
    model = MappingInput()
    batch = collections.UserDict(ids=torch.tensor([[1, 2]]), mask=torch.tensor([[1.0, 0.0]]))
    with tracer.trace(model) as t:
        model(batch)
    assert {s.name for s in t.recording.sources.values()} == {"batch[0]", "batch[1]"}
    assert [e.op for e in t.recording.events] == ["float", "mul"]
    assert all(e.inputs[0].vid in t.recording.sources for e in t.recording.events[:1])


def test_huggingface_model_output_and_batch_encoding() -> None:
    transformers = pytest.importorskip("transformers")
    from transformers.utils import ModelOutput

    @dataclasses.dataclass
    class TinyOutput(ModelOutput):
        logits: Optional[torch.Tensor] = None
        hidden_states: Optional[torch.Tensor] = None
        attentions: Optional[torch.Tensor] = None

    class Tiny(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(10, D)

        def forward(self, input_ids=None, attention_mask=None, **kwargs):
            hidden = self.embed(input_ids) * attention_mask.unsqueeze(-1)
            return TinyOutput(logits=hidden.sum(-1), hidden_states=hidden)

    model = Tiny()
    encoding = transformers.BatchEncoding(
        {"input_ids": torch.tensor([[3, 4, 0]]), "attention_mask": torch.tensor([[1, 1, 0]])}
    )
    with tracer.trace(model) as t:
        out = model(**encoding)
    names = {s.name: s.meta.dtype for s in t.recording.sources.values() if s.kind == "input"}
    assert names == {"input_ids": "int64", "attention_mask": "int64"}
    assert [m.shape for m in t.recording.outputs] == [tuple(out.logits.shape), tuple(out.hidden_states.shape)]
    assert [m.shape for m in t.recording.outputs] == [(1, 3), (1, 3, D)]


class WithMHA(nn.Module):
    def __init__(self, need_weights: bool) -> None:
        super().__init__()
        self.need_weights = need_weights
        self.attn = nn.MultiheadAttention(D, H, batch_first=True)

    def forward(self, x: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        out, _ = self.attn(x, memory, memory, need_weights=self.need_weights)  # <mha>
        return out


@pytest.mark.parametrize("fastpath", [True, False])
@pytest.mark.parametrize("need_weights", [True, False])
def test_multihead_attention_insides_are_recorded_and_fastpath_restored(fastpath: bool, need_weights: bool) -> None:
    torch.manual_seed(0)
    model = WithMHA(need_weights).eval()
    x, memory = torch.randn(B, T, D), torch.randn(B, T + 2, D)
    expected = model(x, memory)
    previous = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(fastpath)
    try:
        with tracer.trace(model) as t:
            out = model(x, memory)
        assert torch.backends.mha.get_fastpath_enabled() is fastpath
    finally:
        torch.backends.mha.set_fastpath_enabled(previous)
    assert torch.equal(out, expected)
    assert F.has_torch_function is torch.overrides.has_torch_function  # the composite's patch is undone
    events = t.recording.events
    ops = [e.op for e in events]
    assert ops.count("linear") >= 2  # the in-projections and the out-projection
    if need_weights:
        soft = one(events, "softmax")
        assert soft.arg(1, "dim") == -1 and soft.module == "attn"
        assert soft.inputs[0].shape == (B * H, T, T + 2)
        first_bmm = ops.index("bmm")
        assert first_bmm < ops.index("softmax") < len(ops) - 1 - ops[::-1].index("bmm")
    else:
        sdpa = one(events, "scaled_dot_product_attention")
        assert [m.shape for m in sdpa.inputs] == [(B, H, T, DH), (B, H, T + 2, DH), (B, H, T + 2, DH)]
        assert sdpa.module == "attn"
    for event in events:
        assert event.module == "attn" and same_file(event.file) and event.line == line_of("mha")


# --------------------------------------------------------------------------- faithfulness
def state_of(model: nn.Module) -> dict:
    return {
        "tensors": {name: (tensor, tensor.detach().clone(), tensor.requires_grad, tensor.device)
                    for name, tensor in [*model.named_parameters(), *model.named_buffers()]},
        "training": {name: module.training for name, module in model.named_modules()},
        "hooks": {name: (dict(m._forward_hooks), dict(m._forward_pre_hooks)) for name, m in model.named_modules()},
    }


def assert_same_state(model: nn.Module, before: dict) -> None:
    after = state_of(model)
    assert after["tensors"].keys() == before["tensors"].keys()
    for name, (tensor, copy, requires_grad, device) in before["tensors"].items():
        now = after["tensors"][name]
        assert now[0] is tensor, name
        assert torch.equal(now[1], copy) and now[2] == requires_grad and now[3] == device, name
        assert tensor.grad is None, name
    assert after["training"] == before["training"]
    assert after["hooks"] == before["hooks"]


def seq2seq(dropout: float = 0.0) -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    model = EncoderDecoderTransformer(11, 13, d_model=16, num_heads=2, d_ff=32, num_layers=2,
                                      max_len=20, dropout=dropout)
    src = torch.randint(1, 11, (2, 7))
    src[1, 5:] = 0
    tgt = torch.randint(1, 13, (2, 6))
    tgt[0, 4:] = 0
    return model, src, tgt


def test_reference_encoder_decoder_outputs_bit_identical_and_state_unchanged() -> None:
    model, src, tgt = seq2seq()
    model.eval()
    model.vocab_projection.weight.requires_grad_(False)  # a mix of frozen and trainable parameters
    expected = model(src, tgt)
    before = state_of(model)
    with tracer.trace(model) as t:
        out = model(src, tgt)
    assert torch.equal(out, expected)
    assert out.dtype == expected.dtype and out.requires_grad == expected.requires_grad
    assert_same_state(model, before)
    assert t.recording.outputs[0].shape == (2, 6, 13)
    layers, attentions_per_layer, matmuls_per_attention = 2, 1 + 2, 2  # encoder self; decoder self + cross
    assert len(list(t.recording.ops("matmul"))) == layers * attentions_per_layer * matmuls_per_attention


def test_torch_transformer_encoder_outputs_bit_identical() -> None:
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(D, H, 16, dropout=0.1, batch_first=True)
    model = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()
    x = torch.randn(B, T, D)
    padding = torch.zeros(B, T, dtype=torch.bool)
    padding[1, -2:] = True
    expected = model(x, src_key_padding_mask=padding)
    before = state_of(model)
    with tracer.trace(model) as t:
        out = model(x, src_key_padding_mask=padding)
    assert torch.equal(out, expected)
    assert_same_state(model, before)
    assert sum(e.op == "scaled_dot_product_attention" for e in t.recording.events) == 2
    assert {e.module for e in t.recording.ops("scaled_dot_product_attention")} == {
        "layers.0.self_attn", "layers.1.self_attn"}


class Noisy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(D, D)
        self.drop = nn.Dropout(0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.lin(x)) + F.dropout(x, 0.3, training=self.training) + torch.rand_like(x)


@pytest.mark.parametrize("build", ["noisy", "seq2seq"])
def test_random_draws_unchanged_in_train_mode(build: str) -> None:
    if build == "noisy":
        torch.manual_seed(1)
        model, inputs = Noisy().train(), (torch.randn(B, T, D),)
    else:
        model, src, tgt = seq2seq(dropout=0.3)
        model.train()
        inputs = (src, tgt)

    def run(seed: int, traced: bool) -> tuple[torch.Tensor, torch.Tensor]:
        torch.manual_seed(seed)
        if traced:
            with tracer.trace(model):
                out = model(*inputs)
        else:
            out = model(*inputs)
        return out, torch.get_rng_state()

    expected, expected_state = run(7, traced=False)
    other, _ = run(8, traced=False)
    assert not torch.equal(expected, other)  # the forward really draws random numbers
    out, state = run(7, traced=True)
    assert torch.equal(out, expected)
    assert torch.equal(state, expected_state)
    assert model.training and all(m.training for m in model.modules())


def test_gradients_flow_and_equal_the_untraced_ones() -> None:
    torch.manual_seed(0)
    model = EncoderLayer(D, H, 16)
    x = torch.randn(B, T, D, requires_grad=True)
    model(x).square().mean().backward()
    expected = {name: p.grad.clone() for name, p in model.named_parameters()}
    expected_x = x.grad.clone()
    model.zero_grad(set_to_none=True)
    x.grad = None
    with tracer.trace(model) as t:
        loss = model(x).square().mean()
        loss.backward()
    assert x.grad is not None and torch.equal(x.grad, expected_x)
    for name, p in model.named_parameters():
        assert p.grad is not None and torch.equal(p.grad, expected[name]), name
    # `square`, `mean` and the backward ran outside the model: only its forward is recorded.
    assert t.recording.events and not any(e.op in ("square", "backward") for e in t.recording.events)


def test_recorded_shapes_and_values_equal_the_real_tensors() -> None:
    """Hook every module ourselves and compare what we see with what the recorder wrote down."""
    torch.manual_seed(0)
    model = EncoderLayer(D, H, 16).eval()
    x = torch.randn(B, T, D)
    padding = torch.zeros(B, T, dtype=torch.bool)
    padding[0, -1] = True
    seen: list[tuple[str, list, list]] = []
    paths = {id(module): path for path, module in model.named_modules()}
    flat = lambda value: [v for v in (value if isinstance(value, (tuple, list)) else (value,)) if isinstance(v, torch.Tensor)]  # noqa: E731
    handles = []
    for module in model.modules():
        handles.append(module.register_forward_pre_hook(
            lambda m, args: seen.append((paths[id(m)], [a.detach().clone() for a in flat(args)], []))))
        handles.append(module.register_forward_hook(
            lambda m, args, out: [entry for entry in seen if entry[0] == paths[id(m)]][-1][2].extend(
                o.detach().clone() for o in flat(out))))
    try:
        with tracer.trace(model, value_budget_bytes=2**30) as t:
            model(x, padding)
    finally:
        for handle in handles:
            handle.remove()
    calls = t.recording.module_calls
    assert [c.path for c in calls] == [path for path, _, _ in seen]
    checked = 0
    for call, (path, real_in, real_out) in zip(calls, seen):
        assert [m.shape for m in call.outputs] == [tuple(o.shape) for o in real_out], path
        if call.path:  # the root's inputs are all its arguments; our pre-hook saw the positional ones
            assert [m.shape for m in call.inputs] == [tuple(i.shape) for i in real_in], path
        for meta, real in zip(call.outputs, real_out):
            assert meta.dtype == str(real.dtype).removeprefix("torch.")
            kept = t.recording.values.get(meta.vid)
            if kept is not None:
                assert torch.equal(kept, real), path
                checked += 1
    assert checked >= len(calls)  # small tensors: every module output was kept and compared
    # The attention weights returned by the reference attention are the recorded `div` output.
    weights = [e for e in t.recording.events if e.op == "div" and e.module == "self_attn"][-1]
    assert weights.outputs[0].shape == (B, H, T, T)


# --------------------------------------------------------------------------- cleanup
def global_state() -> tuple:
    return (
        dict(module_globals._global_forward_hooks),
        dict(module_globals._global_forward_pre_hooks),
        dict(module_globals._global_forward_hooks_always_called),
        len(torch.overrides._get_current_function_mode_stack()),
        torch._C._is_torch_function_mode_enabled(),
        torch.backends.mha.get_fastpath_enabled(),
        F.has_torch_function,
        gc.isenabled(),
    )


def test_hooks_and_mode_are_installed_inside_and_removed_after_the_block() -> None:
    before = global_state()
    assert not before[4]
    model = Outer()
    with tracer.trace(model):
        inside = global_state()
        model(torch.randn(B, T, D), causal_mask())
    assert len(inside[0]) == len(before[0]) + 1 and len(inside[1]) == len(before[1]) + 1
    assert inside[3] == before[3] + 1 and inside[4]
    assert global_state() == before


class Failing(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(D, D)
        self.inner = FailingInner()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.lin(x).relu()
        return self.inner(h) + 1


class FailingInner(nn.Module):
    def forward(self, h: torch.Tensor) -> torch.Tensor:
        scores = h @ h.transpose(-2, -1)
        return scores @ torch.ones(T + 1, 3)  # <raises>


def test_forward_that_raises_keeps_partial_recording_and_cleans_up() -> None:
    model = Failing()
    x = torch.randn(B, T, D)
    with pytest.raises(RuntimeError) as untraced:
        model(x)
    before = global_state()
    caught = []
    with pytest.raises(RuntimeError) as traced:
        with tracer.trace(model) as t:
            try:
                model(x)
            except RuntimeError as error:
                caught.append(error)
                raise
    assert traced.value is caught[0] and str(traced.value) == str(untraced.value)
    assert global_state() == before
    recording = t.recording
    assert [e.op for e in recording.events] == ["linear", "relu", "transpose", "matmul", "ones", "matmul"]
    failing = recording.events[-1]
    assert failing.error == f"RuntimeError: {untraced.value}"
    assert failing.outputs == () and [m.shape for m in failing.inputs] == [(B, T, T), (T + 1, 3)]
    assert all(e.error is None for e in recording.events[:-1])
    assert same_file(failing.file) and failing.line == line_of("raises")
    assert recording.error == f"RuntimeError: {untraced.value}"
    assert same_file(recording.error_file) and recording.error_line == line_of("raises")
    assert [(c.path, c.raised) for c in recording.module_calls] == [("", True), ("lin", False), ("inner", True)]
    assert recording.outputs == []
    # The next trace starts from a clean slate.
    with tracer.trace(model.lin) as again:
        model.lin(x)
    assert [e.op for e in again.recording.events] == ["linear"] and again.recording.error is None


def test_error_inside_multihead_attention_restores_the_composite_patch() -> None:
    model = nn.MultiheadAttention(D, H, batch_first=True)
    before = global_state()
    with pytest.raises(RuntimeError):
        with tracer.trace(model) as t:
            model(torch.randn(B, T, D), torch.randn(B, T, D - 2), torch.randn(B, T, D - 2))  # <mha-raises>
    assert global_state() == before
    assert t.recording.events[-1].error is not None and t.recording.events[-1].op == "linear"
    assert same_file(t.recording.error_file) and t.recording.error_line == line_of("mha-raises")


# --------------------------------------------------------------------------- memory
def test_recorder_keeps_no_activation_alive() -> None:
    torch.manual_seed(0)
    model = EncoderLayer(D, H, 16)
    refs: list[weakref.ref] = []
    handles = [m.register_forward_hook(lambda m, a, out: refs.extend(
        weakref.ref(o) for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, torch.Tensor)))
        for m in model.modules()]
    try:
        with tracer.trace(model) as t:
            out = model(torch.randn(B, T, D))
    finally:
        for handle in handles:
            handle.remove()
    assert len(refs) == sum(len(call.outputs) for call in t.recording.module_calls) > len(list(model.modules()))
    assert refs[-1]() is out  # the weak references work: the output is alive while we hold it
    assert t.recording.events and t.recording.values  # the trace itself is still alive
    del out
    gc.collect()
    assert [ref for ref in refs if ref() is not None] == []
    # Kept values are private copies, not the model's tensors.
    assert all(value.grad_fn is None and not value.requires_grad for value in t.recording.values.values())


def test_value_budget_limits_kept_values() -> None:
    torch.manual_seed(0)
    model = EncoderLayer(D, H, 16).eval()
    x = torch.randn(B, T, D)
    with tracer.trace(model) as roomy:
        model(x)
    budget = 4 * B * H * T * T  # room for about one attention table of float32
    with tracer.trace(model, value_budget_bytes=budget) as tight:
        model(x)
    assert len(roomy.recording.events) == len(tight.recording.events)
    kept, all_kept = tight.recording.values, roomy.recording.values
    assert 0 < len(kept) < len(all_kept)
    assert sum(v.numel() * v.element_size() for v in kept.values()) <= budget
    assert not roomy.recording.notes
    assert any("budget" in note and str(len(all_kept) - len(kept)) in note for note in tight.recording.notes)
    with tracer.trace(model, value_budget_bytes=0) as nothing:
        model(x)
    assert nothing.recording.values == {} and nothing.recording.notes
    # Statistics are kept for every output even when no value is.
    assert all(len(e.stats) == len(e.outputs) for e in nothing.recording.events)


# --------------------------------------------------------------------------- passes
def test_max_passes_limits_recorded_forward_passes() -> None:
    model = Outer()
    x = torch.randn(B, T, D)
    with tracer.trace(model) as single:
        model(x, causal_mask())
    with tracer.trace(model, max_passes=1) as limited:
        model(x, causal_mask())
        model(x, causal_mask())
    assert limited.recording.forward_passes == 1
    assert len(limited.recording.events) == len(single.recording.events)
    assert len(limited.recording.module_calls) == len(single.recording.module_calls)
    with tracer.trace(model) as unlimited:
        model(x, causal_mask())
        model(x, causal_mask())
    assert unlimited.recording.forward_passes == 2
    assert len(unlimited.recording.events) == 2 * len(single.recording.events)
    assert [c.forward_pass for c in unlimited.recording.module_calls].count(1) == len(single.recording.module_calls)


class Properties(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.shape[-1] == x.size(-1) and x.dtype.is_floating_point and not x.is_cuda
        assert x.device.type == "cpu" and x.requires_grad is False and x.ndim == 2 and len(x) == x.shape[0]
        return x.mT @ x.T.transpose(0, 1)


def test_property_reads_are_not_ops_but_transposing_properties_are() -> None:
    model = Properties()
    with tracer.trace(model) as t:
        model(torch.randn(3, 4))
    assert [e.op for e in t.recording.events] == ["transpose", "transpose", "transpose", "matmul"]
    assert [e.outputs[0].shape for e in t.recording.events] == [(4, 3), (4, 3), (3, 4), (4, 4)]
