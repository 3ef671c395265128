"""`attnscope demo`: every number on the page equals the reference models' (COURSE.md)."""

from __future__ import annotations

import torch
from tui_support import SIZE

from models.reference import LayerNorm, scaled_dot_product_attention
from tui.app import DemoApp
from tui.demo_math import DemoSettings, attention, compute
from tui.screens.demo import DemoScreen


def reference_weights(result, causal: bool, padding: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    if padding is None:
        return scaled_dot_product_attention(result.q, result.k, result.v, causal=causal)
    output, weights = scaled_dot_product_attention(result.q[None], result.k[None], result.v[None], padding[None], causal)
    return output[0], weights[0]


async def test_causal_toggle_gives_exactly_the_reference_weights() -> None:
    app = DemoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DemoScreen)
        plain = screen.result
        output, weights = reference_weights(plain, causal=False)
        assert torch.equal(plain.weights, weights) and torch.equal(plain.output, output)
        await pilot.press("c")
        masked = screen.result
        assert screen.settings.causal
        assert torch.equal(masked.q, plain.q)  # same seed, same inputs
        output, weights = reference_weights(masked, causal=True)
        assert torch.equal(masked.weights, weights)
        assert torch.equal(masked.output, output)
        assert not torch.equal(masked.weights, plain.weights)
        assert bool((masked.weights[masked.hidden] == 0).all())
        await pilot.press("c")
        assert torch.equal(screen.result.weights, plain.weights)


async def test_padding_length_dk_and_seed_keys() -> None:
    app = DemoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("t", "t", "d", "p", "c")
        settings = screen.settings
        assert (settings.length, settings.d_k, settings.padding, settings.causal) == (6, 4, True, True)
        result = screen.result
        assert result.q.shape == (6, 4)
        padding = torch.zeros(6, dtype=torch.bool)
        padding[-settings.padded_keys():] = True
        output, weights = reference_weights(result, causal=True, padding=padding)
        assert torch.allclose(result.weights, weights, atol=1e-7) and torch.allclose(result.output, output, atol=1e-6)
        before = result.q
        await pilot.press("s")
        assert screen.settings.seed == 1 and not torch.equal(screen.result.q, before)
        await pilot.press(*"TTTTTTTT", *"DDDDDDDD")  # clamped at T=2, d_k=1
        assert (screen.settings.length, screen.settings.d_k) == (2, 1)


def test_layernorm_panel_matches_the_reference_layernorm() -> None:
    for settings in (DemoSettings(), DemoSettings(seed=3, length=7, d_k=5, causal=True, padding=True)):
        result = compute(settings)
        norm = LayerNorm(settings.d_k)
        with torch.no_grad():
            norm.gamma.copy_(result.gamma)
            norm.beta.copy_(result.beta)
            expected = norm(result.x)
            standardized = norm.standardize(result.x)
        assert torch.allclose(result.normalized, expected, atol=1e-6)
        assert torch.allclose(result.standardized, standardized, atol=1e-6)
        assert torch.allclose(result.var, result.x.var(dim=-1, unbiased=False), atol=1e-6)
        assert torch.allclose(result.mean, result.x.mean(dim=-1))


def test_course_exercise_1_numbers() -> None:
    eye = torch.eye(2)
    _, weights, output = attention(eye, eye, torch.tensor([[2.0, 0.0], [0.0, 4.0]]), torch.zeros(2, 2, dtype=torch.bool))
    assert torch.allclose(weights, torch.tensor([[0.6698, 0.3302], [0.3302, 0.6698]]), atol=1e-4)
    assert torch.allclose(output, torch.tensor([[1.3395, 1.3210], [0.6605, 2.6790]]), atol=1e-4)
