"""Build ../manifest.json from the label table below plus measured values in results/*.json."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

BUGS = {
    "c02_ctc_encoder": dict(expected=["padding-leak"], line="valid = torch.arange(T, device=feats.device)[None, :] <= feat_lens[:, None]",
        also=[], ok=[], cons=[], harm="padding",
        why="Length mask uses <= instead of <, so frame index == length (the first padded frame) is treated as real and attended by every real frame of a padded sample."),
    "c04_dit_text_xattn": dict(expected=["mask-polarity"], line="key_padding_mask=ctx_mask, need_weights=False)[0]",
        also=["text_mask = torch.arange(L, device=text_emb.device)[None, :] < text_len[:, None]"], ok=["padding-leak"], cons=[], harm="padding",
        why="nn.MultiheadAttention's key_padding_mask marks positions to IGNORE (True = pad) but receives the valid-token mask, so cross-attention reads only padded text tokens and ignores the real ones (a sample without any padding would get all keys masked -> NaN)."),
    "c06_video_factorized_st": dict(expected=["axis-mismatch"], line="h = h.reshape(B * T, N, D)",
        also=['h = rearrange(x, "b t n d -> (b n) t d")', "return h.reshape(B, T, N, D)"], ok=["causal-leak"], cons=[], harm="causal",
        why="After temporal attention the tensor is laid out (b n) t d; reshaping it straight to (b t) n d without permuting regroups tokens so each 'spatial' group mixes several frames, and the bidirectional spatial attention then lets earlier frames read later frames of a model whose temporal attention is causal."),
    "c09_qformer_padded_image": dict(expected=["mask-axis"], line="scores = scores.masked_fill(~feat_mask[:, None, :, None], torch.finfo(scores.dtype).min)",
        also=[], ok=["padding-leak"], cons=[], harm="padding",
        why="The image-feature padding mask is broadcast over the query axis (B,1,N,1) instead of the key axis (B,1,1,N) (it broadcasts only because num_queries == N), so padded features stay visible as keys and query rows are masked instead."),
    "c11_moe_capacity": dict(expected=["batch-leak"], line="position_in_expert = (onehot.cumsum(dim=0) - 1) * onehot",
        also=["onehot = F.one_hot(expert_idx, self.n_experts).reshape(B * T, self.n_experts)"], ok=[], cons=[], harm="batch",
        why="Capacity is defined per sequence (ceil(cf*T/E)) but a token's slot in its expert is counted with a cumsum over the flattened B*T tokens, so earlier samples use up later samples' capacity and which tokens of sample 1 are dropped depends on sample 0."),
    "c14_encdec_chunked_decode": dict(expected=["causal-leak"], line="mask = None",
        also=["if past_len == 0:", "mask = torch.ones(Tq, Tq, dtype=torch.bool, device=x.device).tril()"], ok=[], cons=[], harm="causal",
        why="With a KV cache the causal mask is only built for the first chunk; later multi-token chunks (chunk=3) attend without any mask, so a token reads later tokens of its own chunk. Correct: tril(diagonal=past_len) over (Tq, Tk)."),
    "c16_blockwise_encoder_attn": dict(expected=["unstable-softmax"], line="p = torch.exp(s)",
        also=["num = num + p @ v[:, :, ks:ks + kv_chunk]", "den = den + p.sum(dim=-1, keepdim=True)"], ok=[], cons=["nan"], harm="numeric",
        why="Chunked attention accumulates exp(scores) without a running max (no online-softmax rescaling), so logits above ~88 overflow to inf and inf/inf gives NaN, where softmax would be fine."),
    "c18_mamba_mixer": dict(expected=["causal-leak"], line="self.conv1d = nn.Conv1d(self.d_inner, self.d_inner, d_conv, groups=self.d_inner, padding=d_conv // 2)",
        also=["xs = self.conv1d(xs.transpose(1, 2))[..., :T].transpose(1, 2)"], ok=[], cons=[], harm="causal",
        why="The depthwise 'causal' conv pads d_conv//2 = 2 on both sides instead of d_conv-1 = 3 on the left; after keeping the first T outputs each step still sees one future step."),
    "c20_window_attn_sinks": dict(expected=["causal-leak"], line="return local | sink",
        also=["sink = j < n_sink"], ok=[], cons=[], harm="causal",
        why="Sink columns are OR-ed in without the causal condition, so query 0 (and any i < n_sink-1) attends to sink token 1, a later position."),
    "c23_qknorm_decoder": dict(expected=["layernorm-axis"], line="return x * torch.rsqrt(x.pow(2).mean(dim=-2, keepdim=True) + eps) * weight",
        also=["q = rms_norm(q, self.q_norm_weight)", "k = rms_norm(k, self.k_norm_weight)"], ok=["causal-leak"], cons=[], harm="causal",
        why="QK RMSNorm averages over dim -2, which on (B,H,T,dh) is the time axis, so each query/key is scaled by statistics of the whole sequence including future tokens."),
    "c26_gqa_decoder": dict(expected=["batch-leak"], line="x = x.reshape(B * n_kv, T, d).repeat(n_rep, 1, 1)",
        also=["return x.reshape(B, n_kv * n_rep, T, d)"], ok=["axis-mismatch", "head-split"], cons=[], harm="batch",
        why="repeat_kv tiles the (B*n_kv) axis with repeat and reshapes back to (B, H), so query heads of sample 0 receive keys/values of sample 1 (head 2 of sample 0 = kv head 0 of sample 1)."),
    "c28_t5_decoder_selfattn": dict(expected=["mask-after-softmax"], line="weights = weights.masked_fill(~causal, 0.0)",
        also=["weights = scores.float().softmax(dim=-1).type_as(scores)"], ok=["causal-leak"], cons=[], harm="causal",
        why="The causal mask is applied after the softmax (zeroing probabilities, no renormalisation), so future keys still enter the normaliser and the output at t depends on later tokens."),
    "c30_alibi_decoder_a": dict(expected=["mask-value"], line="scores = scores.masked_fill(j > i, 0.0)",
        also=[], ok=["causal-leak"], cons=[], harm="causal",
        why="Future positions are filled with 0 instead of -inf; with ALiBi biases negative for the past, the future keys even get the largest logits."),
    "c32_set_encoder_pool": dict(expected=["padding-leak"], line="pooled = x.mean(dim=1)",
        also=[], ok=[], cons=[], harm="padding",
        why="The set pooling is a plain mean over all N slots including padded points (whose hidden states carry their own content through the residual), so the class logits depend on padding."),
    "c34_graph_attention_a": dict(expected=["softmax-axis"], line="alpha = torch.softmax(e, dim=1)",
        also=[], ok=[], cons=[], harm="axis",
        why="Attention logits e are (B, N_dst, N_src, H); softmax over dim=1 normalises over destination nodes instead of each node's neighbours, so rows do not sum to 1 and a node's output depends on non-neighbours."),
    "c37_mae_encoder_a": dict(expected=["nondeterministic"], line="noise = torch.rand(B, L, device=x.device)",
        also=[], ok=[], cons=[], harm="random",
        why="Random patch masking draws fresh global-RNG noise on every forward, also in eval, so two eval passes on the same input keep different patches."),
    "c39_encoder_attn_dropout": dict(expected=["dropout-eval"], line="attn = F.dropout(attn, p=self.attn_drop)",
        also=[], ok=["nondeterministic"], cons=[], harm="random",
        why="F.dropout defaults to training=True and is not given self.training, so attention dropout stays on in eval."),
    "c41_custom_layernorm_encoder": dict(expected=["layernorm-variance"], line="var = x.var(dim=-1, keepdim=True)",
        also=[], ok=[], cons=[], harm="numeric",
        why="Hand-written LayerNorm uses the unbiased (N-1) variance; outputs are scaled by sqrt((d-1)/d) = 0.968 for d=16 relative to LayerNorm."),
    "c43_conformer_conv_module_a": dict(expected=["batch-leak"], line="self.batch_norm = nn.BatchNorm1d(channels, track_running_stats=False)",
        also=["x = self.activation(self.batch_norm(x))"], ok=[], cons=[], harm="batch",
        why="BatchNorm1d without running stats normalises with the current batch statistics even in eval, so one utterance's output depends on the other utterances in the batch."),
    "c45_causal_self_attn_heads": dict(expected=["head-split"], line="return t.view(B, self.n_head, T, C // self.n_head)",
        also=["q = self._split_heads(self.q_proj(x), B, T, C)", "k = self._split_heads(self.k_proj(x), B, T, C)", "v = self._split_heads(self.v_proj(x), B, T, C)"],
        ok=["causal-leak"], cons=[], harm="causal",
        why="Heads are split with view(B, H, T, dh) directly instead of view(B, T, H, dh).transpose(1, 2); slot (h, t) then holds features of time step (h*T+t)//H, and after the (correct) merge the output at t contains later time steps."),
    "c47_text_cross_attn_proc": dict(expected=["scale-factor"], line="self.scale = self.inner_dim ** -0.5",
        also=["scores = torch.baddbmm(bias, q, k.transpose(-1, -2), beta=1.0, alpha=self.scale)"], ok=[], cons=[], harm="numeric",
        why="Logits are scaled by 1/sqrt(inner_dim)=1/sqrt(32) instead of 1/sqrt(head_dim)=1/sqrt(8) (half the correct scale), flattening the attention distribution."),
    "c49_speech_encoder_stack": dict(expected=["padding-leak"], line="x = self.adapter(x)",
        also=[], ok=[], cons=[], harm="padding",
        why="The final adapter block is a full self-attention block but is called without the length mask, so in that layer real frames attend to padded frames."),
}

CORRECT_WHY = {
    "c01_conformer_relpos_mhsa": "ESPnet/Transformer-XL relative-position MHSA: rel_shift places relative position i-j at [i,j]; key padding masked with -inf before softmax; every sample has a real frame; pads zeroed at the output.",
    "c03_dit_adaln_block": "DiT adaLN block: per-sample shift/scale/gate from the conditioning (unsqueeze(1) over tokens), LayerNorm without affine, SDPA with default 1/sqrt(head_dim).",
    "c05_timestep_text_xattn": "Boolean SDPA mask (True = attend) over text keys; a sample with a single text token still has one valid key; odd timestep-embedding dim zero-padded.",
    "c07_mla_decoupled_rope": "MLA with low-rank KV and a shared decoupled rope key; scale 1/sqrt(nope+rope dims); causal -inf mask; equals the absorbed-weight inference form.",
    "c08_diff_attention": "Differential attention: two causal softmax maps per head pair subtracted with lambda (negative weights are by design), per-head RMSNorm, (1-lambda_init) scaling.",
    "c10_perceiver_latents": "Learned latents cross-attend to padded inputs with a key-side boolean mask; latents are permutation invariant in the inputs.",
    "c12_moe_top2": "Top-2 softmax routing per token with no capacity; index_add scatter equals the dense weighted mixture; tokens and samples independent.",
    "c13_retrieval_xattn": "Causal self-attention plus cross-attention to retrieved neighbours with a key mask (one neighbour fully padded but others valid).",
    "c15_blockwise_causal_attn": "Blockwise causal attention with running max/sum (online softmax), ragged blocks; equals full softmax, stable at large logits.",
    "c17_linear_attn_causal": "Causal linear attention with prefix cumsums for both numerator and normaliser; equals the masked quadratic form.",
    "c19_selective_scan_block": "Mamba-style block: causal depthwise conv (left pad d_conv-1, keep first T), sequential selective scan equals closed form.",
    "c21_sliding_window_sinks": "Causal AND (window OR sink) visibility; finfo.min additive bias; each row sees at least token 0.",
    "c22_packed_docs_posids": "Packed documents: block-diagonal causal mask and per-document position ids; each document equals running it alone.",
    "c24_packed_docs_rope": "Packed documents with RoPE on global positions: RoPE scores depend only on relative offsets, so block-diagonal causal masking alone makes each document equal to running it alone.",
    "c25_partial_rotary": "NeoX partial rotary (25% of head dim), pass-through dims untouched; invariant to shifting all position ids; causal.",
    "c27_ntk_rope_gqa_qknorm": "NTK-scaled rope base, qk RMSNorm over head_dim, GQA repeat_kv via expand (== repeat_interleave), causal SDPA.",
    "c29_t5_encoder_buckets": "T5 encoder: bidirectional relative buckets, bias computed once and shared (with the padding mask added); no 1/sqrt(d) is the T5 design (folded into init), matches an explicit unscaled reference.",
    "c31_alibi_decoder_b": "BLOOM-style ALiBi bias slope*key_position differs from -slope*(i-j) by a per-row constant, which softmax cancels; future masked with finfo.min.",
    "c33_set_transformer_pma": "Set Transformer SAB + PMA with key masks; permutation invariant; padded elements ignored; equals the unpadded set.",
    "c35_graph_attention_b": "GATv2 with self-loops, softmax over each node's neighbours (last axis), -inf for non-edges; permutation equivariant.",
    "c36_vit_registers": "ViT with register tokens inserted after position embedding (registers carry no position), discarded at output; cls read at index 0.",
    "c38_mae_encoder_b": "MAE random masking from noise generated by a seeded generator inside build() and passed in; deterministic; masked patches' content cannot affect the encoder.",
    "c40_prescaled_query_attn": "q multiplied by 1/sqrt(head_dim) before SDPA with scale=1.0 -- equals standard scaled attention.",
    "c42_video_frame_causal": "Block-causal video attention: a token sees all patches of its own and earlier frames; equals running the prefix of frames alone.",
    "c44_conformer_conv_module_b": "Conformer conv module with eval-mode BatchNorm (running stats) and pads zeroed before the depthwise conv; equals the unpadded utterance.",
    "c46_encdec_cached_decode": "KV-cache decoding with mask tril(diagonal=Tk-Tq) for any chunk size; equals a single parallel causal pass for every chunk schedule.",
    "c48_ctc_subsampled_encoder": "Stride-2 conv subsampling with pads zeroed before each conv (so the last real output frame, whose kernel touches a pad, sees zeros = zero padding), length formula, masked attention and masked mean pooling.",
    "c50_streaming_chunk_encoder": "U2-style chunk streaming: frames see their whole chunk plus one left chunk, never a later chunk (within-chunk lookahead is the documented design); chunk-causal outputs equal streaming the prefix.",
}


def find_line(src_lines, snippet, fname):
    hits = [i + 1 for i, l in enumerate(src_lines) if snippet in l]
    assert len(hits) == 1, (fname, snippet, hits)
    return hits[0]


def proof_text(res):
    parts = []
    for c in res["checks"]:
        v = c["value"]
        vs = f"{v:.3g}" if isinstance(v, float) else str(v)
        parts.append(f"{c['check']}: {vs}")
    return "; ".join(parts)


files = {}
names = sorted(f[:-3] for f in os.listdir(ROOT) if f.startswith("c") and f.endswith(".py"))
for name in names:
    src = open(os.path.join(ROOT, name + ".py")).read().splitlines()
    res = json.load(open(os.path.join(HERE, "results", name + ".json")))
    assert res["ok"], name
    pf = f"proofs/p{name[1:3]}.py: " + proof_text(res)
    if name in BUGS:
        b = BUGS[name]
        assert res["label"] == "bug", name
        files[name + ".py"] = {
            "expected": b["expected"],
            "line": find_line(src, b["line"], name),
            "also_lines": [find_line(src, s, name) for s in b["also"]],
            "also_ok_codes": b["ok"],
            "consequence_codes": b["cons"],
            "harm": b["harm"],
            "why": b["why"],
            "proof": pf,
        }
    else:
        assert res["label"] == "correct", name
        files[name + ".py"] = {
            "expected": [], "line": None, "also_lines": [], "also_ok_codes": [], "consequence_codes": [],
            "harm": None, "why": CORRECT_WHY[name], "proof": pf,
        }
manifest = {"set": "blind7", "written": "2026-12-02", "files": files}
json.dump(manifest, open(os.path.join(ROOT, "manifest.json"), "w"), indent=2)
from collections import Counter
print(len(files), "files;", sum(1 for f in files.values() if f["expected"]), "buggy;",
      Counter(f["harm"] for f in files.values()))
