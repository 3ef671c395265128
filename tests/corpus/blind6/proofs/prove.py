"""One proof per model file.  Run:  python proofs/prove.py  [name ...]

Each proof rebuilds the model with build() for every forward it compares (state/caches reset),
measures the effect, asserts the label, and returns the measurements.  Results go to proofs/results.json.
"""
import json
import math
import sys

import torch
import torch.nn.functional as F

from common import (HARM, TOL, batch_effect, causal_scan, fresh, get, main_out, manual_mha, mdiff,
                    pad_effect, patch, put, ref_diff, run, single_future_token, two_passes, change)

PROOFS = {}


def proof(name, label):
    def deco(fn):
        PROOFS[name] = (label, fn)
        return fn
    return deco


def harmful(x):
    assert x > HARM, f"expected harm, measured {x:.3g}"
    return x


def holds(x, tol=TOL):
    assert x < tol, f"expected invariance, measured {x:.3g}"
    return x


def f(x):
    return float(f"{x:.3g}")


# ----------------------------------------------------------------------------------------------
@proof("b01_gqa_static_cache", "correct")
def p01():
    name = "b01_gqa_static_cache"
    c, _, _ = causal_scan(name, 0, vocab=64)
    bt, _ = batch_effect(name, [0], vocabs=[64])

    def ref(model, tokens):
        h = model.embed(tokens)
        for layer in model.layers:
            a = layer.attn
            x = layer.attn_norm(h)
            B, T, _ = x.shape
            q = a.wq(x).view(B, T, a.n_heads, a.head_dim).transpose(1, 2)
            k = a.wk(x).view(B, T, a.n_kv_heads, a.head_dim).transpose(1, 2)
            v = a.wv(x).view(B, T, a.n_kv_heads, a.head_dim).transpose(1, 2)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            h = h + a.wo(o.transpose(1, 2).reshape(B, T, -1))
            h = h + layer.mlp(layer.mlp_norm(h))
        return model.lm_head(model.norm(h))

    model, a, _ = fresh(name)
    with torch.no_grad():
        r = mdiff(model(*a), ref(fresh(name)[0], a[0]))
    holds(c); holds(bt); holds(r, 1e-4)
    return dict(causal=f(c), batch=f(bt), ref_sdpa_gqa=f(r),
                proof=f"max change at <=t when tokens >t change: {c:.1e}; sample-1 change moves sample 0 by {bt:.1e}; "
                      f"token-by-token cached decode matches full causal SDPA(enable_gqa) to {r:.1e}")


@proof("b02_causal_lm_block", "buggy")
def p02():
    name = "b02_causal_lm_block"
    c, t, _ = causal_scan(name, 0, vocab=50)
    one = single_future_token(name, 0, 4, vocab=50, offset=1)
    two = single_future_token(name, 0, 4, vocab=50, offset=2)
    harmful(one)
    return dict(causal=f(c), next_token=f(one), token_plus2=f(two),
                proof=f"changing only token 5 moves the logits at position 4 by {one:.3g} (token 6: {two:.1e}); "
                      f"worst change at <=t from tokens >t: {c:.3g} (t={t})")


@proof("b03_padded_encoder", "correct")
def p03():
    name = "b03_padded_encoder"
    _, a, k = fresh(name)
    pad = k["src_key_padding_mask"]
    p = pad_effect(name, 0, pad, None)
    bt, _ = batch_effect(name, [0])
    holds(p); holds(bt)
    return dict(padding=f(p), batch=f(bt),
                proof=f"random content at padded frames changes outputs by {p:.1e} (all positions); sample independence {bt:.1e}")


@proof("b04_bert_style_encoder", "buggy")
def p04():
    name = "b04_bert_style_encoder"
    _, a, _ = fresh(name)
    real = a[1].bool()
    p = pad_effect(name, 0, ~real, real, vocab=100, low=1)
    harmful(p)
    return dict(padding=f(p), proof=f"changing the padded tokens' ids moves hidden states at real positions by {p:.3g}")


@proof("b05_sliding_window_lm", "buggy")
def p05():
    name = "b05_sliding_window_lm"
    c, t, _ = causal_scan(name, 0, vocab=64)
    one = single_future_token(name, 0, 3, vocab=64)
    harmful(c)
    return dict(causal=f(c), next_token=f(one),
                proof=f"changing tokens after t moves logits at <=t by up to {c:.3g} (t={t}); token 4 alone moves position 3 by {one:.3g}")


@proof("b06_alibi_decoder", "correct")
def p06():
    name = "b06_alibi_decoder"
    c, _, _ = causal_scan(name, 0, vocab=80)
    bt, _ = batch_effect(name, [0], vocabs=[80])

    def ref_fwd(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        i = torch.arange(T)[:, None]
        j = torch.arange(T)[None, :]
        slopes = torch.tensor([2 ** (-8 * (h + 1) / self.n_heads) for h in range(self.n_heads)])
        s = s - slopes[:, None, None] * (i - j).abs()
        s = s.masked_fill(j > i, float("-inf"))
        return self.out((s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, C))

    r, _ = ref_diff(name, "AlibiAttention", ref_fwd)
    holds(c); holds(bt); holds(r, 1e-4)
    return dict(causal=f(c), batch=f(bt), ref=f(r),
                proof=f"causal invariance {c:.1e}; batch {bt:.1e}; matches a manual ALiBi (-m|i-j| + causal -inf) reference to {r:.1e}")


@proof("b07_chunked_prefill", "correct")
def p07():
    name = "b07_chunked_prefill"
    c, _, _ = causal_scan(name, 0, vocab=64)
    bt, _ = batch_effect(name, [0], vocabs=[64])

    def ref(model, tokens):
        B, T = tokens.shape
        h = model.embed(tokens) + model.pos(torch.arange(T))
        for layer in model.layers:
            a = layer.attn
            x = layer.norm1(h)
            q = a.q_proj(x).view(B, T, a.n_heads, a.head_dim).transpose(1, 2)
            k = a.k_proj(x).unsqueeze(1)
            v = a.v_proj(x).unsqueeze(1)
            o = F.scaled_dot_product_attention(q, k.expand_as(q), v.expand_as(q), is_causal=True)
            h = h + a.o_proj(o.transpose(1, 2).reshape(B, T, -1))
            h = h + layer.mlp(layer.norm2(h))
        return model.head(model.norm(h))

    model, a, _ = fresh(name)
    with torch.no_grad():
        r = mdiff(model(*a), ref(fresh(name)[0], a[0]))
    holds(c); holds(bt); holds(r, 1e-4)
    return dict(causal=f(c), batch=f(bt), ref=f(r),
                proof=f"causal invariance {c:.1e}; batch {bt:.1e}; chunked prefill (chunks of 3) matches one-shot causal SDPA to {r:.1e}")


@proof("b08_tiny_transformer", "buggy")
def p08():
    name = "b08_tiny_transformer"
    bt, own = batch_effect(name, [0], vocabs=[60])

    def ref_fwd(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).view(b, n, 3, self.heads, self.dim_head).unbind(dim=2)
        s = torch.einsum("bqhd,bkhd->bhqk", q, k) * self.scale
        o = torch.einsum("bhqk,bkhd->bqhd", s.softmax(-1), v)
        return self.to_out(o.reshape(b, n, -1))

    r, _ = ref_diff(name, "SelfAttention", ref_fwd)
    harmful(bt); harmful(r)
    return dict(batch=f(bt), ref_softmax_last=f(r),
                proof=f"changing sample 1's tokens moves sample 0's logits by {bt:.3g}; softmax over keys gives logits differing by {r:.3g}")


@proof("b09_packed_documents", "correct")
def p09():
    name = "b09_packed_documents"
    _, a, _ = fresh(name)
    ids, docs = a
    base = run(name, a)
    # change document 2 of row 0 (positions 9..11)
    m = torch.zeros_like(docs, dtype=torch.bool)
    m[0, 9:] = True
    o = run(name, [change(ids, m, 64), docs])
    d_later = mdiff(base[0, :9], o[0, :9])
    # change document 0 of row 0 (positions 0..4)
    m = torch.zeros_like(docs, dtype=torch.bool)
    m[0, :5] = True
    o = run(name, [change(ids, m, 64), docs])
    d_earlier = mdiff(base[0, 5:], o[0, 5:])
    # document 1 of row 0 run on its own
    solo = run(name, [ids[0:1, 5:9], torch.zeros(1, 4, dtype=torch.long)])
    d_solo = mdiff(base[0, 5:9], solo[0])
    c, _, _ = causal_scan(name, 0, vocab=64)
    bt, _ = batch_effect(name, [0], vocabs=[64])
    for x in (d_later, d_earlier, c, bt):
        holds(x)
    holds(d_solo, 1e-4)
    return dict(doc_later=f(d_later), doc_earlier=f(d_earlier), solo=f(d_solo), causal=f(c), batch=f(bt),
                proof=f"editing doc 2 moves docs 0-1 by {d_later:.1e}; editing doc 0 moves docs 1-2 by {d_earlier:.1e}; "
                      f"doc 1 run alone equals its packed output to {d_solo:.1e}; causal {c:.1e}; batch {bt:.1e}")


@proof("b10_prefill_cache", "buggy")
def p10():
    name = "b10_prefill_cache"
    c, t, per = causal_scan(name, 0, vocab=64)
    one = single_future_token(name, 0, 1, vocab=64)
    harmful(one)
    return dict(causal=f(c), next_token=f(one), chunk_boundary=f(per[3]),
                proof=f"changing only token 2 moves logits at position 1 by {one:.3g}; worst leak {c:.3g} (t={t}); "
                      f"at a chunk boundary (t=3) the change is {per[3]:.1e}")


@proof("b11_rope_interleaved", "correct")
def p11():
    name = "b11_rope_interleaved"
    c, _, _ = causal_scan(name, 0, vocab=64)
    bt, _ = batch_effect(name, [0], vocabs=[64])
    _, a, _ = fresh(name)
    shift = mdiff(run(name, a, {}), run(name, a, {"start_pos": 7}))
    mod = __import__("common").module(name)
    xq, xk = torch.randn(2, 10, 4, 8), torch.randn(2, 10, 4, 8)
    fq, fk = mod.apply_rotary_emb(xq, xk, mod.precompute_freqs_cis(8, 10))
    pos = torch.arange(10).float()[:, None]
    theta = pos * (1.0 / 10000 ** (torch.arange(0, 8, 2).float() / 8))
    cos, sin = theta.cos()[None, :, None, :], theta.sin()[None, :, None, :]
    ev, od = xq[..., 0::2], xq[..., 1::2]
    rq = torch.stack([ev * cos - od * sin, ev * sin + od * cos], dim=-1).flatten(-2)
    rr = mdiff(fq, rq)
    holds(c); holds(bt); holds(shift, 1e-4); holds(rr, 1e-5)
    return dict(causal=f(c), batch=f(bt), shift=f(shift), rope_ref=f(rr),
                proof=f"causal {c:.1e}; batch {bt:.1e}; outputs invariant to a global position offset of 7 ({shift:.1e}); "
                      f"complex RoPE equals rotate-every-two real reference to {rr:.1e}")


@proof("b12_set_pooling", "buggy")
def p12():
    name = "b12_set_pooling"
    _, a, _ = fresh(name)
    mask = a[1]
    p = pad_effect(name, 0, ~mask, None)
    harmful(p)
    return dict(padding=f(p), proof=f"random content in padded set slots moves the logits by {p:.3g} (samples 1 and 2 have padding)")


@proof("b13_attention_sinks", "correct")
def p13():
    name = "b13_attention_sinks"
    c, _, _ = causal_scan(name, 0, vocab=64)
    bt, _ = batch_effect(name, [0], vocabs=[64])

    def ref_fwd(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) * self.scale
        s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        e = s.exp()
        p = e / (e.sum(-1, keepdim=True) + self.sinks.exp().view(1, -1, 1, 1))
        return self.out((p @ v).transpose(1, 2).reshape(B, T, C))

    r, _ = ref_diff(name, "SinkAttention", ref_fwd)
    holds(c); holds(bt); holds(r, 1e-4)
    return dict(causal=f(c), batch=f(bt), ref=f(r),
                proof=f"causal {c:.1e}; batch {bt:.1e}; equals exp(s)/(sum exp(s)+exp(sink)) reference to {r:.1e}")


@proof("b14_seq_first_mha", "correct")
def p14():
    name = "b14_seq_first_mha"
    _, a, _ = fresh(name)
    src, kpm = a
    pad_tb = kpm.t()
    p = pad_effect(name, 0, pad_tb, ~pad_tb)
    bt, _ = batch_effect(name, [0], batch_in=1, batch_out=1)
    model = fresh(name)[0]
    mha = model.layers[0].self_attn
    h = torch.randn(8, 3, 32)
    with torch.no_grad():
        got = mha(h, h, h, key_padding_mask=kpm, need_weights=False)[0]
        ref = manual_mha(mha, h, h, h, kpm)
    r = mdiff(got[~pad_tb], ref[~pad_tb])
    holds(p); holds(bt); holds(r, 1e-5)
    return dict(padding=f(p), batch=f(bt), ref=f(r),
                proof=f"changing padded frames moves real (S,B) outputs by {p:.1e}; batch {bt:.1e}; "
                      f"sequence-first MHA with (B,S) key_padding_mask equals manual masked attention to {r:.1e}")


@proof("b15_encoder_block", "buggy")
def p15():
    name = "b15_encoder_block"
    bt, _ = batch_effect(name, [0], vocabs=[50], batch_in=1, batch_out=1)

    def ref_fwd(self, x):
        T, B, E = x.shape
        q = (self.q_proj(x) * self.scaling).view(T, B * self.num_heads, self.head_dim).transpose(0, 1)
        k = self.k_proj(x).view(T, B * self.num_heads, self.head_dim).transpose(0, 1)
        v = self.v_proj(x).view(T, B * self.num_heads, self.head_dim).transpose(0, 1)
        o = torch.bmm(torch.softmax(torch.bmm(q, k.transpose(1, 2)), -1), v)
        return self.out_proj(o.transpose(0, 1).reshape(T, B, E))

    r, _ = ref_diff(name, "MultiheadSelfAttention", ref_fwd)
    harmful(bt); harmful(r)
    return dict(batch=f(bt), ref=f(r),
                proof=f"changing sample 1's tokens moves sample 0's encoder output by {bt:.3g}; "
                      f"merging heads with transpose(0,1) before view gives outputs differing by {r:.3g}")


@proof("b16_vit_attention", "buggy")
def p16():
    name = "b16_vit_attention"

    def ref_fwd(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4).unbind(0)
        o = F.scaled_dot_product_attention(q, k, v)
        return self.proj(o.transpose(1, 2).reshape(B, N, C))

    r, mx = ref_diff(name, "Attention", ref_fwd)
    # size of the effect on the attention distribution of block 0
    model, a, _ = fresh(name)
    with torch.no_grad():
        x = model.patch_embed(a[0]).flatten(2).transpose(1, 2)
        x = torch.cat([model.cls_token.expand(2, -1, -1), x], 1) + model.pos_embed
        at = model.blocks[0].attn
        h = model.blocks[0].norm1(x)
        q, k, _ = at.qkv(h).reshape(2, 17, 3, 4, 16).permute(2, 0, 3, 1, 4).unbind(0)
        s = q @ k.transpose(-1, -2)
        pd = mdiff(s.softmax(-1), (s * at.scale).softmax(-1))
    harmful(r)
    return dict(ref_sdpa=f(r), probs=f(pd),
                proof=f"SDPA (scale 1/sqrt(16)) reference gives logits differing by {r:.3g} (max |logit| {mx:.2f}); "
                      f"attention probabilities of block 0 differ by up to {pd:.3g}")


@proof("b17_left_padded_prefill", "correct")
def p17():
    name = "b17_left_padded_prefill"
    _, a, _ = fresh(name)
    ids, am = a
    real = am.bool()
    p = pad_effect(name, 0, ~real, real, vocab=64, low=1)
    solo = run(name, [ids[1:2, 3:], torch.ones(1, 5, dtype=torch.long)])
    base = run(name, a)
    d_solo = mdiff(base[1, 3:], solo[0])
    c, _, _ = causal_scan(name, 0, vocab=64, low=1)
    bt, _ = batch_effect(name, [0], vocabs=[64], lows=[1])
    holds(p); holds(c); holds(bt); holds(d_solo, 1e-4)
    return dict(padding=f(p), solo=f(d_solo), causal=f(c), batch=f(bt),
                proof=f"pad content moves real logits by {p:.1e}; left-padded row equals the same 5 tokens run unpadded to {d_solo:.1e}; "
                      f"causal {c:.1e}; batch {bt:.1e}")


@proof("b18_decoder_dropout", "buggy")
def p18():
    name = "b18_decoder_dropout"
    d = two_passes(name)
    harmful(d)
    model = fresh(name)[0]
    return dict(two_passes=f(d), training=model.training,
                proof=f"two forward passes of the same eval-mode model on the same input differ by {d:.3g}")


@proof("b19_contrastive_pairs", "correct")
def p19():
    name = "b19_contrastive_pairs"
    _, a, _ = fresh(name)
    patches, ids, am = a
    L = run(name, a)
    m = torch.zeros(3, dtype=torch.bool); m[1] = True
    Li = run(name, [change(patches, m), ids, am])
    rows_other = mdiff(L[[0, 2]], Li[[0, 2]])
    row_own = mdiff(L[1], Li[1])
    Lt = run(name, [patches, change(ids, m, 100, 1), am])
    cols_other = mdiff(L[:, [0, 2]], Lt[:, [0, 2]])
    real = am.bool()
    p = mdiff(L, run(name, [patches, change(ids, ~real, 100, 1), am]))
    lt = run(name, a, pick=lambda o: o[1])
    tr = mdiff(lt, L.t())
    holds(rows_other); holds(cols_other); holds(p); holds(tr)
    assert row_own > HARM
    return dict(rows_other=f(rows_other), cols_other=f(cols_other), padding=f(p), transpose=f(tr),
                proof=f"logits[i,j] depend only on image i and text j: changing image 1 moves rows 0,2 by {rows_other:.1e} "
                      f"(row 1 by {row_own:.2g}), changing text 1 moves columns 0,2 by {cols_other:.1e}; text pad content {p:.1e}")


@proof("b20_llama_block", "correct")
def p20():
    name = "b20_llama_block"
    c, _, _ = causal_scan(name, 0, vocab=96)
    bt, _ = batch_effect(name, [0], vocabs=[96])
    _, a, _ = fresh(name)
    pos = torch.arange(9).expand(2, 9)
    shift = mdiff(run(name, [a[0], pos]), run(name, [a[0], pos + 5]))
    holds(c); holds(bt); holds(shift, 1e-4)
    return dict(causal=f(c), batch=f(bt), shift=f(shift),
                proof=f"causal {c:.1e}; batch {bt:.1e}; invariant to position_ids + 5 ({shift:.1e}), so RoPE is relative")


@proof("b21_seq2seq_cross", "buggy")
def p21():
    name = "b21_seq2seq_cross"
    _, a, _ = fresh(name)
    src_mask, tgt_mask = a[2].bool(), a[3].bool()
    p = pad_effect(name, 0, ~src_mask, tgt_mask, vocab=60, low=1)
    harmful(p)
    return dict(padding=f(p),
                proof=f"changing the padded source tokens (sample 0, positions 5-7) moves decoder logits at real target positions by {p:.3g}")


@proof("b22_padded_causal_lm", "buggy")
def p22():
    name = "b22_padded_causal_lm"
    c, t, _ = causal_scan(name, 0, vocab=64, low=1, rows=[0])
    one = single_future_token(name, 0, 2, vocab=64, low=1)
    harmful(c)
    return dict(causal=f(c), next_token=f(one),
                proof=f"in the unpadded row, changing tokens after t moves logits at <=t by up to {c:.3g} (t={t}); "
                      f"token 3 alone moves position 2 by {one:.3g}")


@proof("b23_prefix_lm", "correct")
def p23():
    name = "b23_prefix_lm"
    _, a, _ = fresh(name)
    ids, P = a
    base = run(name, a)
    worst = 0.0
    for b in range(2):
        for t in range(P[b].item() - 1, 9):
            m = torch.zeros_like(ids, dtype=torch.bool)
            m[b, t + 1:] = True
            o = run(name, [change(ids, m, 64), P])
            worst = max(worst, mdiff(base[b, :t + 1], o[b, :t + 1]))
    # prefix positions do see later prefix tokens (by design)
    m = torch.zeros_like(ids, dtype=torch.bool); m[0, 3] = True
    bidir = mdiff(base[0, 0], run(name, [change(ids, m, 64), P])[0, 0])
    bt, _ = batch_effect(name, [0], vocabs=[64])
    holds(worst); holds(bt)
    return dict(causal_after_prefix=f(worst), prefix_bidirectional=f(bidir), batch=f(bt),
                proof=f"for every t >= prefix_len-1, changing tokens >t moves outputs <=t by {worst:.1e}; "
                      f"inside the prefix position 0 sees token 3 (moves {bidir:.2g}, intended); batch {bt:.1e}")


@proof("b24_latent_attention", "correct")
def p24():
    name = "b24_latent_attention"
    c, _, _ = causal_scan(name, 0, vocab=64)
    bt, _ = batch_effect(name, [0], vocabs=[64])
    _, a, _ = fresh(name)
    shift = mdiff(run(name, a, {}), run(name, a, {"start_pos": 6}))
    holds(c); holds(bt); holds(shift, 1e-4)
    return dict(causal=f(c), batch=f(bt), shift=f(shift),
                proof=f"causal {c:.1e}; batch {bt:.1e}; invariant to a position offset of 6 ({shift:.1e})")


@proof("b25_left_pad_positions", "buggy")
def p25():
    name = "b25_left_pad_positions"
    _, a, _ = fresh(name)
    ids, am = a
    base = run(name, a)
    am2 = am.clone(); am2[0, :4] = 0
    ids2 = ids * am2
    o = run(name, [ids2, am2])
    d_other = mdiff(base[1], o[1])
    solo = run(name, [ids[1:2], am[1:2]])
    d_solo = mdiff(base[1, 3:], solo[0, 3:])
    harmful(d_other); harmful(d_solo)
    return dict(batch=f(d_other), solo=f(d_solo),
                proof=f"padding two more positions of sample 0 moves sample 1's logits by {d_other:.3g}; "
                      f"sample 1 run alone differs from its batched real-position logits by {d_solo:.3g}")


@proof("b26_perceiver_latents", "correct")
def p26():
    name = "b26_perceiver_latents"
    _, a, _ = fresh(name)
    p = pad_effect(name, 0, ~a[1], None)
    bt, _ = batch_effect(name, [0])
    holds(p); holds(bt)
    return dict(padding=f(p), batch=f(bt),
                proof=f"random data in masked input slots moves logits by {p:.1e}; batch {bt:.1e} (the (b h) folding keeps samples apart)")


@proof("b27_text_classifier", "buggy")
def p27():
    name = "b27_text_classifier"
    _, a, _ = fresh(name)
    real = a[1].bool()
    p = pad_effect(name, 0, ~real, None, vocab=80, low=1)
    harmful(p)
    return dict(padding=f(p), proof=f"changing padded token ids moves the CLS logits by {p:.3g}")


@proof("b28_mha_key_padding", "correct")
def p28():
    name = "b28_mha_key_padding"
    _, a, _ = fresh(name)
    real = a[1].bool()
    p = pad_effect(name, 0, ~real, None, vocab=90, low=1)
    p_tok = pad_effect(name, 0, ~real, real, vocab=90, low=1, pick=lambda o: o[1])
    bt, _ = batch_effect(name, [0], vocabs=[90], lows=[1])
    model = fresh(name)[0]
    mha = model.layers[0].mha
    h = torch.randn(3, 8, 32)
    with torch.no_grad():
        r = mdiff(mha(h, h, h, key_padding_mask=~real, need_weights=False)[0][real], manual_mha(mha, h, h, h, ~real)[real])
    holds(p); holds(p_tok); holds(bt); holds(r)
    return dict(padding=f(p), padding_tokens=f(p_tok), batch=f(bt), ref=f(r),
                proof=f"pad token ids move the pooled embedding by {p:.1e} and real token states by {p_tok:.1e}; batch {bt:.1e}; "
                      f"MHA with key_padding_mask=(attention_mask==0) equals manual masked attention to {r:.1e}")


@proof("b29_audio_encoder", "buggy")
def p29():
    name = "b29_audio_encoder"

    def ref_fwd(self, x):
        B, T, C = x.shape
        q = self.query(x).view(B, T, self.n_head, -1).transpose(1, 2)
        k = self.key(x).view(B, T, self.n_head, -1).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_head, -1).transpose(1, 2)
        o = F.scaled_dot_product_attention(q, k, v)
        return self.out(o.transpose(1, 2).flatten(2))

    r, mx = ref_diff(name, "MultiHeadAttention", ref_fwd)
    harmful(r)
    return dict(ref=f(r), proof=f"splitting heads with view(B,T,H,D).transpose(1,2) gives encoder outputs differing by {r:.3g} (max |out| {mx:.2f})")


@proof("b30_video_block", "correct")
def p30():
    name = "b30_video_block"
    bt, _ = batch_effect(name, [0])
    model, a, _ = fresh(name)
    blk = model.blocks[0]
    x = torch.randn(2, 4, 6, 32)
    with torch.no_grad():
        got = blk(x)
        y = x.clone()
        for b in range(2):
            for n in range(6):
                s = x[b, :, n][None]
                h = blk.time_norm(s)
                y[b, :, n] = (s + blk.time_attn(h, h, h)[0])[0]
        z = y.clone()
        for b in range(2):
            for t in range(4):
                s = y[b, t][None]
                h = blk.space_norm(s)
                z[b, t] = (s + blk.space_attn(h, h, h)[0])[0]
        ref = z + blk.mlp(blk.mlp_norm(z))
    r = mdiff(got, ref)
    holds(bt); holds(r, 1e-5)
    return dict(batch=f(bt), ref=f(r),
                proof=f"batch {bt:.1e}; the rearranged (b n)/(b t) block equals a per-(sample, patch)/(sample, frame) loop to {r:.1e}")


@proof("b31_linear_attention", "buggy")
def p31():
    name = "b31_linear_attention"
    c, t, _ = causal_scan(name, 0, vocab=64)
    harmful(c)
    return dict(causal=f(c), proof=f"changing tokens after t moves logits at <=t by up to {c:.3g} (t={t}); the normaliser sums k over the whole sequence")


@proof("b32_cross_attention", "correct")
def p32():
    name = "b32_cross_attention"
    _, a, k = fresh(name)
    enc_pad = k["encoder_attention_mask"] == 0
    p = pad_effect(name, "encoder_hidden_states", enc_pad, None)
    c, _, _ = causal_scan(name, 0)
    base = run(name, a, k)
    a2, k2 = a, dict(k)
    m = torch.zeros(2, dtype=torch.bool); m[1] = True
    a2 = [change(a[0], m)]
    k2["encoder_hidden_states"] = change(k["encoder_hidden_states"], m)
    bt = mdiff(base[0], run(name, a2, k2)[0])
    holds(p); holds(c); holds(bt)
    return dict(padding=f(p), causal=f(c), batch=f(bt),
                proof=f"padded encoder frames move decoder outputs by {p:.1e}; causal in decoder time {c:.1e}; batch {bt:.1e}")


@proof("b33_conv_mixer", "buggy")
def p33():
    name = "b33_conv_mixer"
    bt, _ = batch_effect(name, [0])
    _, a, _ = fresh(name)
    solo = mdiff(run(name, a)[0], run(name, [a[0][:1]])[0])
    harmful(bt)
    return dict(batch=f(bt), solo=f(solo),
                proof=f"in eval mode, changing sample 1's features moves sample 0's logits by {bt:.3g}; sample 0 alone vs in the batch differs by {solo:.3g}")


@proof("b34_vit_block", "correct")
def p34():
    name = "b34_vit_block"

    def ref_fwd(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v)
        return self.proj(o.transpose(1, 2).reshape(B, N, C))

    r, _ = ref_diff(name, "KeyMajorAttention", ref_fwd)
    bt, _ = batch_effect(name, [0])
    holds(r, 1e-5); holds(bt)
    return dict(ref=f(r), batch=f(bt),
                proof=f"key-major scores with softmax over dim -2 equal SDPA to {r:.1e}; batch {bt:.1e}")


@proof("b35_kv_cache_chunks", "buggy")
def p35():
    name = "b35_kv_cache_chunks"
    c, t, _ = causal_scan(name, 0, vocab=64)
    one = single_future_token(name, 0, 0, vocab=64)
    harmful(c)
    return dict(causal=f(c), next_token=f(one),
                proof=f"changing tokens after t moves logits at <=t by up to {c:.3g} (t={t}); token 1 alone moves position 0 by {one:.3g}")


@proof("b36_streaming_audio", "correct")
def p36():
    name = "b36_streaming_audio"
    c, _, _ = causal_scan(name, 0)
    bt, _ = batch_effect(name, [0])
    holds(c); holds(bt)
    return dict(causal=f(c), batch=f(bt), proof=f"changing frames after t moves outputs at <=t by {c:.1e}; batch {bt:.1e}")


@proof("b37_masked_mean_classifier", "correct")
def p37():
    name = "b37_masked_mean_classifier"
    _, a, _ = fresh(name)
    x, pm = a
    p = pad_effect(name, 0, pm, None)
    x2 = torch.cat([x, torch.randn(3, 4, 6)], dim=1)
    pm2 = torch.cat([pm, torch.ones(3, 4, dtype=torch.bool)], dim=1)
    extra = mdiff(run(name, a), run(name, [x2, pm2]))
    bt, _ = batch_effect(name, [0])
    holds(p); holds(extra); holds(bt)
    return dict(padding=f(p), extra_padding=f(extra), batch=f(bt),
                proof=f"pad content moves logits by {p:.1e}; appending 4 extra padded slots moves them by {extra:.1e}; batch {bt:.1e}")


@proof("b38_point_cloud_attention", "buggy")
def p38():
    name = "b38_point_cloud_attention"

    def ref_fwd(self, x):
        B, N, C = x.shape
        q, k, v = (t.reshape(B, N, self.heads, self.dk).permute(0, 2, 1, 3) for t in self.to_qkv(x).chunk(3, -1))
        o = F.scaled_dot_product_attention(q, k, v)
        return self.proj(o.permute(0, 2, 1, 3).reshape(B, N, C))

    r, _ = ref_diff(name, "PointAttention", ref_fwd)
    model, a, _ = fresh(name)
    with torch.no_grad():
        x = model.norms[0](model.embed(a[0]))
        at = model.attn[0]
        q, k, _ = (t.reshape(2, 12, 4, 8).permute(0, 2, 1, 3) for t in at.to_qkv(x).chunk(3, -1))
        w = torch.softmax(q @ k.transpose(2, 3) / 8 ** 0.5, dim=-2)
        rowdev = (w.sum(-1) - 1).abs().max().item()
    harmful(r)
    return dict(ref=f(r), row_sum_dev=f(rowdev),
                proof=f"softmax over keys (SDPA) gives logits differing by {r:.3g}; attention rows sum to 1 +- {rowdev:.2g}")


@proof("b39_where_mask_encoder", "buggy")
def p39():
    name = "b39_where_mask_encoder"
    _, a, _ = fresh(name)
    p = pad_effect(name, 0, ~a[1], None, vocab=70, low=1)
    harmful(p)
    return dict(padding=f(p), proof=f"changing padded token ids moves the masked-mean sentence embeddings by {p:.3g}")


@proof("b40_mixture_of_depths", "correct")
def p40():
    name = "b40_mixture_of_depths"
    bt, own = batch_effect(name, [0], vocabs=[64])
    _, a, _ = fresh(name)
    base = run(name, a)
    solo = max(mdiff(base[b], run(name, [a[0][b:b + 1]])[0]) for b in range(3))
    d = two_passes(name)
    holds(bt); holds(solo, 1e-5); holds(d)
    return dict(batch=f(bt), solo=f(solo), two_passes=f(d),
                proof=f"batch {bt:.1e} (sample 1 itself moves {own:.2g}); each sample alone equals its batched output to {solo:.1e}; two passes {d:.1e}")


@proof("b41_conv_decoder", "buggy")
def p41():
    name = "b41_conv_decoder"
    c, t, _ = causal_scan(name, 0, vocab=64)
    one = single_future_token(name, 0, 2, vocab=64, offset=3)
    harmful(c)
    return dict(causal=f(c), token_plus3=f(one),
                proof=f"changing tokens after t moves logits at <=t by up to {c:.3g} (t={t}); token 5 alone moves position 2 by {one:.3g}")


@proof("b42_manual_softmax_lm", "correct")
def p42():
    name = "b42_manual_softmax_lm"
    _, a, _ = fresh(name)
    real = a[1].bool()
    c, _, _ = causal_scan(name, 0, vocab=64, low=1)
    p = pad_effect(name, 0, ~real, real, vocab=64, low=1)
    bt, _ = batch_effect(name, [0], vocabs=[64], lows=[1])

    def ref_fwd(self, x, allowed):
        B, T, C = x.shape
        q, k, v = (f(x).view(B, T, self.n_heads, -1).transpose(1, 2) for f in (self.q, self.k, self.v))
        return self.o(F.scaled_dot_product_attention(q, k, v, attn_mask=allowed).transpose(1, 2).reshape(B, T, C))

    r, _ = ref_diff(name, "ManualAttention", ref_fwd)
    holds(c); holds(p); holds(bt); holds(r, 1e-4)
    return dict(causal=f(c), padding=f(p), batch=f(bt), ref=f(r),
                proof=f"causal {c:.1e}; pad content {p:.1e}; batch {bt:.1e}; manual exp*mask/sum equals SDPA with the bool mask to {r:.1e}")


@proof("b43_patch_encoder", "buggy")
def p43():
    name = "b43_patch_encoder"

    def ref_fwd(self, x):
        return F.layer_norm(x, x.shape[-1:], self.weight, self.bias, self.eps)

    r, mx = ref_diff(name, "LayerNorm", ref_fwd)
    harmful(r)
    return dict(ref=f(r), proof=f"F.layer_norm over the feature axis gives encoder outputs differing by {r:.3g} (max |out| {mx:.2f})")


@proof("b44_masked_softmax_zero", "correct")
def p44():
    name = "b44_masked_softmax_zero"
    _, a, _ = fresh(name)
    real = a[1]
    p = pad_effect(name, 0, ~real, real, vocab=64, low=1)
    bt, _ = batch_effect(name, [0], vocabs=[64], lows=[1])

    def ref_fwd(self, x, attention_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask[:, None, None, :])
        o = o.transpose(1, 2).reshape(B, T, C) * attention_mask[..., None]
        return self.proj(o)

    r, _ = ref_diff(name, "PaddedSelfAttention", ref_fwd)
    holds(p); holds(bt); holds(r, 1e-4)
    return dict(padding=f(p), batch=f(bt), ref=f(r),
                proof=f"pad token ids move real outputs by {p:.1e}; batch {bt:.1e}; equals SDPA with key mask to {r:.1e}")


@proof("b45_mha_pooling", "buggy")
def p45():
    name = "b45_mha_pooling"
    _, a, _ = fresh(name)
    real = a[1].bool()
    p = pad_effect(name, 0, ~real, None, vocab=64, low=1)

    def ref_fwd(self, h, attention_mask):
        q = self.query.expand(h.shape[0], -1, -1)
        return self.attn(q, h, h, key_padding_mask=~attention_mask.bool(), need_weights=False)[0].squeeze(1)

    r, _ = ref_diff(name, "AttentionPool", ref_fwd)
    harmful(p)
    return dict(padding=f(p), ref=f(r),
                proof=f"changing padded token ids moves the pooled logits by {p:.3g}; key_padding_mask=~mask gives logits differing by {r:.3g}")


@proof("b46_local_attention", "correct")
def p46():
    name = "b46_local_attention"
    c, _, _ = causal_scan(name, 0)
    _, a, _ = fresh(name)
    x = a[0]
    base = run(name, a)
    W = 3
    worst = 0.0
    for t in range(W, 10):
        m = torch.zeros(2, 10, dtype=torch.bool); m[:, : t - W + 1] = True
        o = run(name, [change(x, m)])
        worst = max(worst, mdiff(base[:, t], o[:, t]))
    bt, _ = batch_effect(name, [0])
    holds(c); holds(worst); holds(bt)
    return dict(causal=f(c), outside_window=f(worst), batch=f(bt),
                proof=f"causal {c:.1e}; frames older than the 3-frame window move position t by {worst:.1e}; batch {bt:.1e}")


# ----------------------------------------------------------------------------------------------
def main(names):
    results = {}
    ok = True
    for name, (label, fn) in PROOFS.items():
        if names and name not in names:
            continue
        try:
            torch.manual_seed(0)
            res = fn()
            if label == "correct":
                d = two_passes(name)
                holds(d)
                res["two_passes"] = f(d)
            res["label"] = label
            res["confirmed"] = True
            print(f"[ok]   {name:32s} {label:8s} {res['proof']}")
        except AssertionError as e:
            ok = False
            res = {"label": label, "confirmed": False, "error": str(e)}
            print(f"[FAIL] {name:32s} {label:8s} {e}")
        results[name] = res
    if not names:
        out = __import__("pathlib").Path(__file__).with_name("results.json")
        out.write_text(json.dumps(results, indent=1))
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1:]) else 1)
