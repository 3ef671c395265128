"""The zoo entries built on the reference models: each builds, runs on CPU and is deterministic."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest
import torch

import models.reference
from models.reference import scaled_dot_product_attention

REFERENCE_ENTRIES = [
    "exercise4",
    "ref_attention_exercise1",
    "ref_decoder_layer",
    "ref_encoder_decoder",
    "ref_encoder_postnorm",
    "ref_encoder_prenorm",
    "ref_gru_classifier",
    "ref_transformer_classifier",
]

ROOT = Path(models.reference.__file__).resolve().parents[2]


def _call(built: tuple[Any, ...]) -> Any:
    """Run a zoo entry's model on the inputs its build() returned (any of the three forms)."""
    model, *rest = built
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = {}
    for part in rest:
        if isinstance(part, dict):
            kwargs = part
        else:
            args = tuple(part)
    with torch.no_grad():
        return model(*args, **kwargs)


def _tensors(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in _tensors(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _tensors(item)]
    return []


@pytest.mark.parametrize("name", REFERENCE_ENTRIES)
def test_entry_interface(name: str) -> None:
    module = importlib.import_module(f"models.zoo.{name}")
    summary = (module.__doc__ or "").strip().splitlines()
    assert summary and summary[0].strip()
    assert module.EXPECTED == ()
    built = module.build()
    assert 2 <= len(built) <= 3
    model = built[0]
    assert isinstance(model, torch.nn.Module)
    assert not model.training
    for tensor in list(model.parameters()) + list(model.buffers()) + _tensors(built[1:]):
        assert tensor.device.type == "cpu"


@pytest.mark.parametrize("name", REFERENCE_ENTRIES)
def test_entry_runs_and_is_deterministic(name: str) -> None:
    module = importlib.import_module(f"models.zoo.{name}")
    torch.manual_seed(123)
    first = _tensors(_call(module.build()))
    torch.manual_seed(456)  # build() must fix its own seed
    second = _tensors(_call(module.build()))
    assert first and len(first) == len(second)
    for a, b in zip(first, second):
        assert torch.isfinite(a).all()
        assert torch.equal(a, b)


def test_exercise1_entry_gives_published_numbers() -> None:
    module = importlib.import_module("models.zoo.ref_attention_exercise1")
    output, weights = _call(module.build())
    expected_w = torch.tensor([[0.6698, 0.3302], [0.3302, 0.6698]])
    expected_out = torch.tensor([[1.3395, 1.3210], [0.6605, 2.6790]])
    torch.testing.assert_close(weights, expected_w, atol=5e-5, rtol=0)
    torch.testing.assert_close(output, expected_out, atol=5e-5, rtol=0)


def test_exercise4_entry_configuration() -> None:
    module = importlib.import_module("models.zoo.exercise4")
    built = module.build()
    model, (x,) = built
    assert x.shape == (8, 128, 256) and x.dtype == torch.float32
    assert (model.d_model, model.num_heads, model.d_head) == (256, 8, 32)
    output, weights = _call(built)
    assert output.shape == (8, 128, 256) and weights.shape == (8, 8, 128, 128)


@pytest.mark.parametrize("name", ["ref_encoder_postnorm", "ref_encoder_prenorm"])
def test_encoder_entries_mask_last_two_positions_of_sample_1(name: str) -> None:
    module = importlib.import_module(f"models.zoo.{name}")
    model, (x,), kwargs = module.build()
    mask = kwargs["key_padding_mask"]
    assert x.shape == (2, 5, 16) and len(model.layers) == 2
    assert mask.tolist() == [[False] * 5, [False, False, False, True, True]]
    assert all(layer.norm_first == name.endswith("prenorm") for layer in model.layers)
    changed = x.clone()
    changed[1, 3:] += 5.0
    with torch.no_grad():
        torch.testing.assert_close(model(changed, **kwargs)[1, :3], model(x, **kwargs)[1, :3])


def test_decoder_entry_shapes() -> None:
    module = importlib.import_module("models.zoo.ref_decoder_layer")
    model, (y, memory) = module.build()
    assert y.shape[1] == 4 and memory.shape[1] == 6
    with torch.no_grad():
        _, cross_weights = model.cross_attn(y, memory)
    assert cross_weights.shape[-2:] == (4, 6)


def test_encoder_decoder_entry_tokens() -> None:
    module = importlib.import_module("models.zoo.ref_encoder_decoder")
    built = module.build()
    _, (src, tgt) = built
    assert src.shape == (2, 7) and tgt.shape == (2, 5)
    assert (src == 0).any() and (tgt == 0).any()
    assert _call(built).shape == (2, 5, 50)


def test_reference_code_does_not_import_tracer_or_tui() -> None:
    files = sorted((ROOT / "models" / "reference").glob("*.py"))
    files += [ROOT / "models" / "zoo" / f"{name}.py" for name in REFERENCE_ENTRIES]
    assert len(files) > len(REFERENCE_ENTRIES)
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for imported in names:
                assert imported.split(".")[0] not in {"tracer", "tui"}, f"{path}: {imported}"


def test_reference_attention_is_reexported() -> None:
    assert models.reference.scaled_dot_product_attention is scaled_dot_product_attention
    assert set(models.reference.__all__) <= set(dir(models.reference))
