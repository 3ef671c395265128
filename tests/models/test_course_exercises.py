"""COURSE.md, exercise by exercise, against the reference modules in models/reference."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from models.reference import (
    DecoderLayer,
    EncoderDecoderTransformer,
    EncoderLayer,
    GRUClassifier,
    LayerNorm,
    MultiHeadAttention,
    SinusoidalPositionalEncoding,
    TransformerClassifier,
    TransformerEncoder,
    loop_attention,
    scaled_dot_product_attention,
    sinusoidal_positions,
)


def _padding(lengths: list[int], t_k: int) -> torch.Tensor:
    """Bool (B, T_k), True at positions >= length (right padding)."""
    return torch.arange(t_k).unsqueeze(0) >= torch.tensor(lengths).unsqueeze(1)


def _visible(padding: torch.Tensor | None, causal: bool, t_q: int, t_k: int) -> torch.Tensor:
    """The course's mask as an explicit (B, 1, T_q, T_k) table, True = may attend."""
    batch = 1 if padding is None else padding.size(0)
    table = torch.ones(batch, 1, t_q, t_k, dtype=torch.bool)
    if padding is not None:
        table &= ~padding[:, None, None, :]
    if causal:
        table &= torch.ones(t_q, t_k, dtype=torch.bool).tril()
    return table


# --- Exercise 1 -------------------------------------------------------------------------------


def test_exercise1_published_numbers() -> None:
    q = k = torch.eye(2)
    v = torch.tensor([[2.0, 0.0], [0.0, 4.0]])
    output, weights = scaled_dot_product_attention(q, k, v)
    torch.testing.assert_close(
        weights, torch.tensor([[0.6698, 0.3302], [0.3302, 0.6698]]), atol=5e-5, rtol=0
    )
    torch.testing.assert_close(
        output, torch.tensor([[1.3395, 1.3210], [0.6605, 2.6790]]), atol=5e-5, rtol=0
    )
    # The weights are the row-wise softmax of the scaled scores I_2 / sqrt(2).
    torch.testing.assert_close(weights, torch.softmax(torch.eye(2) / math.sqrt(2), dim=-1))


# --- Exercise 2 -------------------------------------------------------------------------------


@pytest.mark.parametrize("causal", [False, True])
def test_exercise2_weight_properties_with_masks(causal: bool) -> None:
    torch.manual_seed(1)
    batch, heads, t, d = 3, 2, 6, 4
    q, k = torch.randn(2, batch, heads, t, d).unbind(0)
    v = torch.randn(batch, heads, t, 5)
    padding = _padding([6, 4, 1], t)
    output, weights = scaled_dot_product_attention(q, k, v, padding, causal)

    assert output.shape == (batch, heads, t, 5)
    assert weights.shape == (batch, heads, t, t)
    assert (weights >= 0).all()
    torch.testing.assert_close(weights.sum(dim=-1), torch.ones(batch, heads, t))
    hidden = ~_visible(padding, causal, t, t).expand_as(weights)
    assert (weights[hidden] == 0).all()
    assert (weights[~hidden] > 0).all()

    constant = torch.full((batch, heads, t, 5), 3.25)
    same_output, _ = scaled_dot_product_attention(q, k, constant, padding, causal)
    torch.testing.assert_close(same_output, constant)


def test_exercise2_cross_attention_rows_over_key_axis() -> None:
    torch.manual_seed(2)
    q, k, v = torch.randn(2, 3, 8), torch.randn(2, 7, 8), torch.randn(2, 7, 5)
    output, weights = scaled_dot_product_attention(q, k, v, _padding([7, 2], 7))
    assert weights.shape == (2, 3, 7) and output.shape == (2, 3, 5)
    torch.testing.assert_close(weights.sum(dim=-1), torch.ones(2, 3))
    assert (weights[1, :, 2:] == 0).all()


# --- Exercise 4 -------------------------------------------------------------------------------


def test_exercise4_shapes_and_score_table_size() -> None:
    torch.manual_seed(0)
    m, t, d, h = 8, 128, 256, 8
    mha = MultiHeadAttention(d, h).eval()
    x = torch.randn(m, t, d)
    assert mha.d_head == 32
    with torch.no_grad():
        for projection in (mha.w_q, mha.w_k, mha.w_v):
            assert mha.split_heads(projection(x)).shape == (8, 8, 128, 32)
        output, weights = mha(x)
    assert weights.shape == (8, 8, 128, 128)
    assert weights.numel() == 1_048_576
    assert weights.numel() * weights.element_size() == 4 * 2**20
    assert output.shape == (8, 128, 256)


def test_head_split_and_merge_are_inverse_and_per_head() -> None:
    mha = MultiHeadAttention(12, 3)
    x = torch.arange(2 * 5 * 12, dtype=torch.float32).view(2, 5, 12)
    split = mha.split_heads(x)
    # Head r holds feature columns r*d_h .. (r+1)*d_h - 1 of every token.
    torch.testing.assert_close(split[:, 1], x[..., 4:8])
    torch.testing.assert_close(mha.merge_heads(split), x)


def test_multi_head_equals_concat_of_single_heads() -> None:
    torch.manual_seed(3)
    d, h = 12, 3
    mha = MultiHeadAttention(d, h)
    x_q, x_kv = torch.randn(2, 4, d), torch.randn(2, 6, d)
    padding = _padding([6, 3], 6)
    with torch.no_grad():
        output, weights = mha(x_q, x_kv, key_padding_mask=padding)
        heads = []
        for r in range(h):
            cols = slice(r * 4, (r + 1) * 4)
            q = x_q @ mha.w_q.weight[cols].T + mha.w_q.bias[cols]
            k = x_kv @ mha.w_k.weight[cols].T + mha.w_k.bias[cols]
            v = x_kv @ mha.w_v.weight[cols].T + mha.w_v.bias[cols]
            head, head_weights = scaled_dot_product_attention(q, k, v, padding)
            torch.testing.assert_close(head_weights, weights[:, r])
            heads.append(head)
        expected = mha.w_o(torch.cat(heads, dim=-1))
    assert output.shape == (2, 4, d) and weights.shape == (2, h, 4, 6)
    torch.testing.assert_close(output, expected)


@pytest.mark.parametrize("heads", [1, 2, 4, 8])
def test_exercise9_head_counts_at_fixed_width(heads: int) -> None:
    mha = MultiHeadAttention(16, heads)
    output, weights = mha(torch.randn(2, 5, 16))
    assert mha.d_head * heads == 16
    assert output.shape == (2, 5, 16) and weights.shape == (2, heads, 5, 5)


@pytest.mark.parametrize("d_model, heads", [(10, 3), (256, 7), (16, 0)])
def test_multi_head_rejects_indivisible_width(d_model: int, heads: int) -> None:
    with pytest.raises(ValueError, match="divisible"):
        MultiHeadAttention(d_model, heads)


# --- Exercises 5 and 6 ------------------------------------------------------------------------

CASES = {
    "no mask": dict(padding=False, causal=False, scale=1.0),
    "padding only": dict(padding=True, causal=False, scale=1.0),
    "causal only": dict(padding=False, causal=True, scale=1.0),
    "padding and causal": dict(padding=True, causal=True, scale=1.0),
    "very large scores": dict(padding=True, causal=True, scale=100.0),
}


@pytest.mark.parametrize("case", CASES)
def test_exercise6_matches_torch_sdpa(case: str) -> None:
    cfg = CASES[case]
    torch.manual_seed(4)
    batch, heads, t, d_k, d_v = 2, 3, 5, 8, 6
    q = (torch.randn(batch, heads, t, d_k, dtype=torch.float64) * cfg["scale"]).requires_grad_()
    k = (torch.randn(batch, heads, t, d_k, dtype=torch.float64) * cfg["scale"]).requires_grad_()
    v = torch.randn(batch, heads, t, d_v, dtype=torch.float64, requires_grad=True)
    padding = _padding([5, 3], t) if cfg["padding"] else None
    if cfg["scale"] > 1:
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
        assert scores.abs().max() > 1e4  # exp would overflow without the max subtraction

    output, weights = scaled_dot_product_attention(q, k, v, padding, cfg["causal"])

    # torch's bool attn_mask means True = may attend: the opposite of key_padding_mask.
    attn_mask = _visible(padding, cfg["causal"], t, t) if cfg["padding"] else None
    is_causal = cfg["causal"] and not cfg["padding"]
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal)
    # With V = I the output is the weight table itself.
    eye = torch.eye(t, dtype=torch.float64).expand(batch, heads, t, t)
    expected_weights = F.scaled_dot_product_attention(
        q, k, eye, attn_mask=attn_mask, is_causal=is_causal
    )

    assert output.shape == expected.shape == (batch, heads, t, d_v)
    assert torch.isfinite(output).all() and torch.isfinite(weights).all()
    torch.testing.assert_close(output, expected)
    torch.testing.assert_close(weights, expected_weights)
    torch.testing.assert_close(weights.sum(-1), torch.ones(batch, heads, t, dtype=torch.float64))
    hidden = ~_visible(padding, cfg["causal"], t, t).expand_as(weights)
    assert (weights[hidden] == 0).all()
    assert (expected_weights[hidden] == 0).all()

    upstream = torch.randn_like(output)
    ours = torch.autograd.grad((output * upstream).sum(), (q, k, v))
    theirs = torch.autograd.grad((expected * upstream).sum(), (q, k, v))
    for mine, reference in zip(ours, theirs):
        assert torch.isfinite(mine).all()
        torch.testing.assert_close(mine, reference)


def test_exercise6_large_scores_float32_stay_finite() -> None:
    q = torch.tensor([[[100.0, 0.0], [0.0, 100.0]]]) * 10
    k = torch.tensor([[[100.0, 0.0], [0.0, 100.0]]]) * 10
    v = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]])
    output, weights = scaled_dot_product_attention(q, k, v)
    assert torch.isfinite(output).all()
    torch.testing.assert_close(weights, torch.eye(2).unsqueeze(0))
    torch.testing.assert_close(output, v)


def test_exercise5_refuses_fully_masked_queries() -> None:
    q = k = v = torch.randn(2, 4, 8)
    all_padding = torch.tensor([[False] * 4, [True] * 4])
    with pytest.raises(ValueError, match="every key masked"):
        scaled_dot_product_attention(q, k, v, all_padding)
    # Left padding + causal: query 0 of sample 1 can only see key 0, which is padding.
    left_padding = torch.tensor([[False] * 4, [True, False, False, False]])
    with pytest.raises(ValueError, match="every key masked"):
        scaled_dot_product_attention(q, k, v, left_padding, causal=True)
    # The same mask without the causal restriction leaves every query a valid key.
    _, weights = scaled_dot_product_attention(q, k, v, left_padding)
    assert (weights[1, :, 0] == 0).all()


def test_exercise5_rejects_malformed_padding_mask() -> None:
    q = k = v = torch.randn(2, 4, 8)
    with pytest.raises(ValueError, match="True = padding"):
        scaled_dot_product_attention(q, k, v, torch.zeros(2, 4))  # float, not bool
    with pytest.raises(ValueError, match="True = padding"):
        scaled_dot_product_attention(q, k, v, torch.zeros(4, 2, dtype=torch.bool))


# --- Exercise 7 -------------------------------------------------------------------------------


def test_exercise7_loop_per_query_equals_batched() -> None:
    torch.manual_seed(5)
    q, k, v = torch.randn(7, 16), torch.randn(9, 16), torch.randn(9, 4)
    loop_out, loop_weights = loop_attention(q, k, v)
    out, weights = scaled_dot_product_attention(q, k, v)
    assert out.shape == loop_out.shape == (7, 4)
    torch.testing.assert_close(loop_out, out)
    torch.testing.assert_close(loop_weights, weights)


def test_exercise7_permutation_equivariance_and_positions() -> None:
    torch.manual_seed(6)
    t, d = 6, 16
    x = torch.randn(2, t, d)
    perm = torch.tensor([3, 0, 5, 1, 4, 2])
    mha = MultiHeadAttention(d, 4).eval()
    encoder = TransformerEncoder(2, d, 4, 32).eval()
    positions = SinusoidalPositionalEncoding(16, d)
    with torch.no_grad():
        torch.testing.assert_close(mha(x[:, perm])[0], mha(x)[0][:, perm])
        torch.testing.assert_close(encoder(x[:, perm]), encoder(x)[:, perm])
        with_positions = encoder(positions(x))
        permuted_with_positions = encoder(positions(x[:, perm]))
    assert not torch.allclose(permuted_with_positions, with_positions[:, perm], atol=1e-3)


# --- Positions --------------------------------------------------------------------------------


@pytest.mark.parametrize("d", [8, 7])
def test_sinusoidal_table_matches_formula(d: int) -> None:
    max_len = 12
    table = sinusoidal_positions(max_len, d)
    assert table.shape == (max_len, d)
    expected = torch.empty(max_len, d)
    for p in range(max_len):
        for j in range(d):
            i = j // 2
            angle = p / 10000 ** (2 * i / d)
            expected[p, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    torch.testing.assert_close(table, expected)


def test_positional_encoding_adds_rows_by_position() -> None:
    encoding = SinusoidalPositionalEncoding(10, 6)
    assert encoding.table.shape == (10, 6)
    assert "table" in dict(encoding.named_buffers())
    assert not list(encoding.parameters())
    x = torch.randn(3, 4, 6)
    torch.testing.assert_close(encoding(x) - x, sinusoidal_positions(4, 6).expand(3, 4, 6))
    with pytest.raises(ValueError, match="max_len"):
        encoding(torch.randn(1, 11, 6))


# --- Layer Normalization ----------------------------------------------------------------------


def test_layernorm_matches_torch() -> None:
    torch.manual_seed(7)
    norm = LayerNorm(10, eps=1e-5)
    with torch.no_grad():
        norm.gamma.copy_(torch.randn(10))
        norm.beta.copy_(torch.randn(10))
    x = torch.randn(4, 3, 10) * 5 + 2
    expected = F.layer_norm(x, (10,), norm.gamma, norm.beta, eps=1e-5)
    torch.testing.assert_close(norm(x), expected)
    # The batch never enters the statistics: one sample alone gives the same rows.
    torch.testing.assert_close(norm(x[2:3]), norm(x)[2:3])


def test_layernorm_standardized_mean_and_mean_square() -> None:
    torch.manual_seed(8)
    eps = 0.5  # large, so that v / (v + eps) is visibly below 1
    norm = LayerNorm(6, eps=eps)
    x = torch.randn(2, 5, 6)
    standardized = norm.standardize(x)
    v = x.var(dim=-1, unbiased=False)
    torch.testing.assert_close(standardized.mean(dim=-1), torch.zeros(2, 5), atol=1e-6, rtol=0)
    torch.testing.assert_close((standardized**2).mean(dim=-1), v / (v + eps))
    assert norm.gamma.shape == norm.beta.shape == (6,)


# --- Transformer layers -----------------------------------------------------------------------


def test_feedforward_formula() -> None:
    torch.manual_seed(9)
    layer = EncoderLayer(8, 2, 16)
    ffn = layer.ffn
    x = torch.randn(3, 4, 8)
    hand = torch.clamp(x @ ffn.linear1.weight.T + ffn.linear1.bias, min=0)
    hand = hand @ ffn.linear2.weight.T + ffn.linear2.bias
    torch.testing.assert_close(ffn(x), hand)


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_matches_hand_computation(norm_first: bool) -> None:
    torch.manual_seed(10)
    layer = EncoderLayer(16, 4, 32, dropout=0.1, norm_first=norm_first).eval()
    x = torch.randn(2, 5, 16)
    padding = _padding([5, 3], 5)

    def mha(h: torch.Tensor) -> torch.Tensor:
        return layer.self_attn(h, key_padding_mask=padding)[0]

    with torch.no_grad():
        if norm_first:  # X' = X + MHA(LN(X)), Y = X' + FFN(LN(X'))
            x1 = x + mha(layer.norm1(x))
            hand = x1 + layer.ffn(layer.norm2(x1))
        else:  # X' = LN(X + MHA(X)), Y = LN(X' + FFN(X'))
            x1 = layer.norm1(x + mha(x))
            hand = layer.norm2(x1 + layer.ffn(x1))
        torch.testing.assert_close(layer(x, padding), hand)

        # The same weights in the other arrangement give a different result.
        other = EncoderLayer(16, 4, 32, norm_first=not norm_first).eval()
        other.load_state_dict(layer.state_dict())
        assert not torch.allclose(other(x, padding), hand, atol=1e-3)


def test_encoder_padding_keys_do_not_change_valid_outputs() -> None:
    torch.manual_seed(11)
    encoder = TransformerEncoder(2, 16, 4, 32).eval()
    x = torch.randn(2, 5, 16)
    padding = _padding([5, 3], 5)
    changed = x.clone()
    changed[1, 3:] = torch.randn(2, 16) * 10
    with torch.no_grad():
        out, out_changed = encoder(x, padding), encoder(changed, padding)
        unmasked_changed = encoder(changed)
    torch.testing.assert_close(out[:, :3], out_changed[:, :3])
    torch.testing.assert_close(out[0], out_changed[0])
    assert not torch.allclose(unmasked_changed[1, :3], out[1, :3], atol=1e-3)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_is_causal_and_reads_memory(norm_first: bool) -> None:
    torch.manual_seed(12)
    layer = DecoderLayer(16, 4, 32, norm_first=norm_first).eval()
    y, memory = torch.randn(2, 4, 16), torch.randn(2, 6, 16)
    changed = y.clone()
    changed[:, 2] = torch.randn(2, 16)
    with torch.no_grad():
        out = layer(y, memory)
        out_changed = layer(changed, memory)
        out_other_memory = layer(y, torch.randn(2, 6, 16))
        _, cross_weights = layer.cross_attn(y, memory)
    assert out.shape == (2, 4, 16)
    assert cross_weights.shape == (2, 4, 4, 6)  # (B, H, T_q, T_k)
    torch.testing.assert_close(out[:, :2], out_changed[:, :2])
    assert not torch.allclose(out[:, 2:], out_changed[:, 2:], atol=1e-3)
    assert not torch.allclose(out, out_other_memory, atol=1e-3)


# --- Encoder-decoder Transformer --------------------------------------------------------------


def _seq2seq() -> EncoderDecoderTransformer:
    torch.manual_seed(13)
    return EncoderDecoderTransformer(50, 40, 32, 4, 64, 2, max_len=16).eval()


def test_encoder_decoder_shape_and_causality() -> None:
    model = _seq2seq()
    src = torch.randint(1, 50, (2, 7))
    tgt = torch.randint(1, 40, (2, 5))
    changed = tgt.clone()
    changed[:, 3] = tgt[:, 3] % 39 + 1  # another real token (ids 1..39)
    with torch.no_grad():
        logits = model(src, tgt)
        logits_changed = model(src, changed)
    assert logits.shape == (2, 5, 40)
    torch.testing.assert_close(logits[:, :3], logits_changed[:, :3])
    assert not torch.allclose(logits[:, 3:], logits_changed[:, 3:], atol=1e-4)


def test_encoder_decoder_padding_keys_do_not_influence_outputs() -> None:
    model = _seq2seq()
    src = torch.randint(1, 50, (1, 5))
    tgt = torch.randint(1, 40, (1, 4))
    padded_src = torch.cat([src, torch.zeros(1, 3, dtype=torch.long)], dim=1)
    padded_tgt = torch.cat([tgt, torch.zeros(1, 2, dtype=torch.long)], dim=1)
    with torch.no_grad():
        alone = model(src, tgt)
        padded = model(padded_src, padded_tgt)
        # Sample 0 is padded; sample 1 is full-length and must not disturb it.
        batch_src = torch.cat([padded_src, torch.randint(1, 50, (1, 8))])
        batch_tgt = torch.cat([padded_tgt, torch.randint(1, 40, (1, 6))])
        batched = model(batch_src, batch_tgt)
        # Were [PAD] not masked, the extra source keys would change the result.
        unmasked = EncoderDecoderTransformer(50, 40, 32, 4, 64, 2, max_len=16, pad_id=-1).eval()
        unmasked.load_state_dict(model.state_dict())
        unmasked_padded = unmasked(padded_src, padded_tgt)
    assert padded.shape == (1, 6, 40)
    torch.testing.assert_close(padded[:, :4], alone)
    torch.testing.assert_close(batched[:1, :4], alone)
    assert not torch.allclose(unmasked_padded[:, :4], alone, atol=1e-4)


# --- Exercise 8 -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["gru", "transformer"])
def test_exercise8_classifiers_ignore_trailing_padding(kind: str) -> None:
    torch.manual_seed(14)
    if kind == "gru":
        model = GRUClassifier(30, 16, 3).eval()
    else:
        model = TransformerClassifier(30, 16, 4, 32, 2, 3, max_len=16).eval()
    tokens = torch.randint(1, 30, (2, 6))
    tokens[1, 4:] = 0
    longer = torch.cat([tokens, torch.zeros(2, 3, dtype=torch.long)], dim=1)
    with torch.no_grad():
        logits = model(tokens)
        logits_longer = model(longer)
        logits_alone = model(tokens[1:, :4])
        logits_changed_last = model(torch.cat([tokens[:, :3], tokens[:, 3:4] % 29 + 1], dim=1))
    assert logits.shape == (2, 3)
    torch.testing.assert_close(logits_longer, logits)
    torch.testing.assert_close(logits[1:], logits_alone)
    assert not torch.allclose(logits_changed_last, model(tokens[:, :4]), atol=1e-5)
