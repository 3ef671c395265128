"""Builds ../manifest.json from the labels below and the measurements in results.json."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
results = json.loads((Path(__file__).with_name("results.json")).read_text())

C = lambda why: dict(correct=True, why=why)


def B(expected, harm, line, why, also=(), ok=(), cons=()):
    return dict(correct=False, expected=expected, harm=harm, line=line, also=list(also), ok=list(ok), cons=list(cons), why=why)


META = {
    "b01_gqa_static_cache": C("Token-by-token decode into a static GQA cache written with k_cache[:, :, pos] = k; only slots <= pos are read, so no mask is needed, and repeat_interleave matches the kv-head grouping."),
    "b02_causal_lm_block": B(["causal-diagonal"], "causal", "diagonal=2)", "The future mask is triu(diagonal=2), so every query also attends to the next token t+1.",
                             also=["att = att.masked_fill(self.future"], ok=["causal-leak"]),
    "b03_padded_encoder": C("Keys at padded positions are replaced by finfo.min with torch.where(keep, scores, min), where keep = ~src_key_padding_mask; padded outputs are zeroed."),
    "b04_bert_style_encoder": B(["mask-polarity"], "padding", "return extended * torch.finfo(dtype).min",
                                "The extended mask multiplies the 1-for-real attention_mask by finfo.min instead of (1 - mask), so real tokens are masked and queries attend only to padding.",
                                also=["scores = scores + extended_attention_mask", "extended = attention_mask[:, None, None, :].to(dtype)"],
                                ok=["padding-leak"], cons=["fully-masked-row"]),
    "b05_sliding_window_lm": B(["causal-leak"], "causal", "return (i - j) < window",
                               "The sliding-window mask only bounds how far back a query looks (i - j < window) and has no upper edge j <= i, so all future tokens are visible.",
                               also=["scores = scores.masked_fill(~allowed"], ok=["causal-diagonal"]),
    "b06_alibi_decoder": C("ALiBi bias slope * (j - i) is <= 0 for visible keys; the positive (future) side is replaced by -inf before SDPA, so the float attn_mask is causal and equals -m|i-j|."),
    "b07_chunked_prefill": C("Chunked prefill of a multi-query cache via index_copy_; the chunk mask compares absolute key positions with start + i, which matches one-shot causal attention."),
    "b08_tiny_transformer": B(["softmax-axis"], "batch", "attn = torch.softmax(scores, dim=0)",
                              "Attention scores are normalised over dim 0, the batch axis, instead of over keys, so samples share probability mass.",
                              ok=["batch-leak"]),
    "b09_packed_documents": C("Packed documents: mask = same_doc & causal and per-document positions from cummax of document starts; documents do not see each other."),
    "b10_prefill_cache": B(["causal-leak"], "causal", "out = F.scaled_dot_product_attention(q, keys, values)",
                           "Each prefill chunk attends to the cache up to the end of the chunk without any mask, so a query sees the later tokens of its own chunk.",
                           ok=["causal-diagonal"]),
    "b11_rope_interleaved": C("Interleaved (GPT-J) RoPE through view_as_complex on pairs (2i, 2i+1); SDPA is_causal with equal query/key lengths; outputs invariant to a global position offset."),
    "b12_set_pooling": B(["padding-leak"], "padding", "pooled = h.mean(dim=1)",
                         "The attention masks padded set slots, but the final pooling averages over all N slots, including padded ones.",
                         ok=["mask-axis"]),
    "b13_attention_sinks": C("A learned sink logit column is concatenated before softmax and dropped after it, so rows sum to < 1 by design; the causal -inf mask is applied before the softmax."),
    "b14_seq_first_mha": C("nn.MultiheadAttention with batch_first=False takes (S, B, E) inputs and a (B, S) key_padding_mask with True = ignore, which is what is passed."),
    "b15_encoder_block": B(["head-merge"], "batch", "attn = attn.contiguous().view(tgt_len, bsz, embed_dim)",
                           "The (B*H, T, D) attention output is viewed as (T, B, C) without transposing back first, which scrambles batch, heads and time.",
                           ok=["batch-leak", "axis-mismatch"]),
    "b16_vit_attention": B(["scale-factor"], "numeric", "attn = q @ k.transpose(-2, -1)",
                           "self.scale = head_dim**-0.5 is defined but never applied, so the logits are not scaled by 1/sqrt(d_k).",
                           also=["self.scale = head_dim**-0.5"]),
    "b17_left_padded_prefill": C("Left-padded prefill: position_ids = cumsum(mask, -1) - 1, causal & key mask plus the diagonal so pad rows stay non-empty; real rows match the unpadded run."),
    "b18_decoder_dropout": B(["dropout-eval"], "random", "att = F.dropout(att, p=self.attn_pdrop)",
                             "F.dropout defaults to training=True, so attention dropout stays active after model.eval().",
                             ok=["nondeterministic"]),
    "b19_contrastive_pairs": C("CLIP-style (B, B) logits img @ txt.T mix the batch by design: entry (i, j) depends only on image i and text j; text pooling is masked."),
    "b20_llama_block": C("Llama block: RMSNorm over the feature axis, half-split rotate_half RoPE, SDPA(is_causal=True, enable_gqa=True), SwiGLU."),
    "b21_seq2seq_cross": B(["padding-leak"], "padding", "return self.decode(tgt_ids, memory, tgt_mask, memory_mask=tgt_mask)",
                           "Cross-attention over the encoder memory is masked with the target padding mask instead of the source mask, so padded source positions are attended.",
                           also=["y = y + self.cross_attn(self.norm2(y), memory, memory_mask)"], ok=["mask-axis", "axis-mismatch"]),
    "b22_padded_causal_lm": B(["causal-leak"], "causal", "allowed = causal | key_ok",
                              "The causal mask and the key-padding mask are combined with | instead of &, so every real future token becomes visible.",
                              also=["key_ok = attention_mask[:, None, None, :].bool()"], ok=["mask-polarity"]),
    "b23_prefix_lm": C("Prefix-LM mask causal | (j < prefix_len): bidirectional inside the prefix, causal after it; here | is the intended combination."),
    "b24_latent_attention": C("MLA: low-rank KV latent with RMSNorm, decoupled RoPE key shared across heads, SDPA with explicit scale=1/sqrt(nope+rope) and a different value head dim."),
    "b25_left_pad_positions": B(["positional-axis"], "batch", "position_ids = attention_mask.long().cumsum(0) - 1",
                                "Position ids are accumulated along dim 0 (the batch) instead of along the sequence, so each sample's positions depend on the other samples' masks.",
                                ok=["batch-leak"]),
    "b26_perceiver_latents": C("Perceiver latents cross-attend with a key mask repeated over (b h); the einops folding of batch and heads is undone correctly."),
    "b27_text_classifier": B(["mask-axis"], "padding", "ext_mask = attention_mask[:, None, :, None]",
                             "The padding mask is broadcast over the query axis instead of the key axis, so padded keys stay visible to real queries.",
                             also=["scores = scores.masked_fill(ext_mask == 0, -1e9)"], ok=["padding-leak"]),
    "b28_mha_key_padding": C("batch_first nn.MultiheadAttention with key_padding_mask = attention_mask == 0 (True = pad) and masked mean pooling."),
    "b29_audio_encoder": B(["head-split"], "axis", "q = self.query(x).view(B, self.n_head, T, -1)",
                           "Heads are split with view(B, H, T, D) straight from (B, T, C) without a transpose, which mixes time steps and channels across heads.",
                           also=["k = self.key(x).view(B, self.n_head, T, -1)", "v = self.value(x).view(B, self.n_head, T, -1)"], ok=["axis-mismatch"]),
    "b30_video_block": C("Divided space-time attention: rearrange 'b t n d -> (b n) t d' and back with named sizes; equals a per-sequence loop."),
    "b31_linear_attention": B(["causal-leak"], "causal", "k_sum = k.sum(dim=2, keepdim=True)",
                              "The numerator uses a cumulative sum over time but the normaliser sums phi(k) over the whole sequence, so outputs depend on future keys.",
                              also=["den = (q * k_sum).sum(dim=-1, keepdim=True)"]),
    "b32_cross_attention": C("Cross-attention with an additive (1 - encoder_attention_mask) * finfo.min bias over encoder keys (S != T); causal self-attention via SDPA is_causal."),
    "b33_conv_mixer": B(["batch-leak"], "batch", "self.norm1 = nn.BatchNorm1d(dim, track_running_stats=False)",
                        "BatchNorm without running statistics normalises with the current batch's statistics even in eval mode, so samples influence each other.",
                        also=["x = x + self.norm1(self.act(self.depthwise(x)))"], ok=["layernorm-axis"]),
    "b34_vit_block": C("Scores are built key-major (k @ q^T) and softmaxed over dim -2, which is the key axis in that layout, then transposed back; equals SDPA."),
    "b35_kv_cache_chunks": B(["causal-leak"], "causal", "mask = chunk_mask(C, end, offset=self.seen, device=x.device)",
                             "The chunk mask offset uses self.seen after it was advanced to the end of the chunk, so every query sees all keys of its chunk.",
                             also=["self.seen = end"], ok=["causal-diagonal"]),
    "b36_streaming_audio": C("Causal depthwise conv via F.pad(x, (k - 1, 0)) and SDPA is_causal; the odd transpose(1, 3).unbind(2) split is correct."),
    "b37_masked_mean_classifier": C("Masked attention, masked mean (sum / count.clamp) and masked max (-inf fill) over a padded set; invariant to pad content and pad count."),
    "b38_point_cloud_attention": B(["softmax-axis"], "axis", "attention = torch.softmax(energy, dim=-2)",
                                   "The attention softmax normalises over the query axis (dim -2) instead of the key axis, so rows do not sum to 1."),
    "b39_where_mask_encoder": B(["mask-polarity"], "padding", "scores = torch.where(valid[:, None, None, :], neg, scores)",
                                "torch.where has its branches swapped: scores of real tokens are replaced by finfo.min and padded keys keep their scores.",
                                ok=["padding-leak"], cons=["fully-masked-row"]),
    "b40_mixture_of_depths": C("Mixture-of-depths routing: top-k along the sequence of each sample, gather/scatter_add per sample; non-causal encoder, batch independent."),
    "b41_conv_decoder": B(["causal-leak"], "causal", "u = self.conv1d(u.transpose(1, 2))[..., -T:]",
                          "The depthwise conv pads k-1 on both sides and keeps the last T outputs instead of the first T, so each position sees the next k-1 tokens.",
                          also=["self.conv1d = nn.Conv1d(dim, dim, kernel_size, groups=dim, padding=kernel_size - 1)"]),
    "b42_manual_softmax_lm": C("Hand-written softmax: max over allowed keys only, exp times the bool mask, then normalise; equals SDPA with the causal & padding mask."),
    "b43_patch_encoder": B(["layernorm-axis"], "axis", "mu = x.mean(dim=1, keepdim=True)",
                           "The hand-rolled LayerNorm takes mean and variance over the token axis (dim 1) instead of the feature axis.",
                           also=["var = x.var(dim=1, keepdim=True, unbiased=False)"]),
    "b44_masked_softmax_zero": C("Keys are masked with -inf before softmax; masked_fill(mask, 0.0) after it is redundant but harmless, and padded query rows are zeroed."),
    "b45_mha_pooling": B(["mask-polarity"], "padding", "key_padding_mask=attention_mask.bool()",
                         "nn.MultiheadAttention's key_padding_mask marks positions to ignore, but the 1-for-real attention_mask is passed, so the pooling query reads only padding.",
                         ok=["padding-leak"], cons=["nan", "fully-masked-row"]),
    "b46_local_attention": C("Banded causal mask ones.tril().triu(-(window-1)) applied with torch.where; a position ignores frames outside the window and all future frames."),
}


def find_line(text, pat):
    hits = [i + 1 for i, l in enumerate(text.splitlines()) if pat in l]
    assert len(hits) == 1, (pat, hits)
    return hits[0]


files = {}
for name in sorted(META):
    m = META[name]
    r = results[name]
    assert r["confirmed"], name
    assert (r["label"] == "correct") == m["correct"], name
    text = (ROOT / f"{name}.py").read_text()
    if m["correct"]:
        entry = dict(expected=[], line=None, also_lines=[], also_ok_codes=[], consequence_codes=[], harm=None)
    else:
        entry = dict(expected=m["expected"], line=find_line(text, m["line"]),
                     also_lines=[find_line(text, p) for p in m["also"]],
                     also_ok_codes=m["ok"], consequence_codes=m["cons"], harm=m["harm"])
    entry["why"] = m["why"]
    entry["proof"] = r["proof"] + ("" if m["correct"] else "") + (f"; two eval passes equal ({r['two_passes']:.1e})" if m["correct"] else "")
    files[name + ".py"] = entry

assert len(files) == len(list(ROOT.glob("b*.py")))
manifest = {"set": "blind6", "written": "2026-12-02", "files": files}
(ROOT / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
bug = [k for k, v in files.items() if v["expected"]]
print(len(files), "files;", len(bug), "buggy;", len(files) - len(bug), "correct")
from collections import Counter
print(Counter(v["harm"] for v in files.values() if v["harm"]))
