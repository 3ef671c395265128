# Label metadata per model (neutral name). "line"/"also" are unique substrings of the line(s) a fix changes.
B = {}
def bug(name, code, line, harm, why, proof, also=(), also_ok=(), consequence=()):
    B[name] = dict(expected=[code], line=line, also=list(also), also_ok_codes=list(also_ok),
                   consequence_codes=list(consequence), harm=harm, why=why, proof=proof)

def ok(name, why, proof):
    B[name] = dict(expected=[], line=None, also=[], also_ok_codes=[], consequence_codes=[], harm=None, why=why, proof=proof)

bug("nano_gpt", "causal-diagonal", "diagonal=2).bool()", "causal",
    "causal mask built with triu(diagonal=2): the next token (j = i+1) is not masked, so every position sees one future key",
    "changing token t+1 changes logits at t by {next_token_effect:.3g}; max future->past effect {causal_effect:.3g}",
    also_ok=["causal-leak"])
bug("bert_pretrain", "mask-polarity", "extended = attention_mask[:, None, None, :]", "padding",
    "attention_mask is 1=keep but is multiplied by -10000 directly, so real tokens are suppressed and pads are attended (should be (1 - mask) * -10000)",
    "changing pad token ids (mask unchanged) moves real-token logits by {pad_content_effect:.3g}; feeding the inverted mask makes the model pad-invariant ({effect_with_flipped_mask:.3g})",
    also_ok=["padding-leak"])
bug("text_classifier", "padding-leak", "pooled = x.sum(dim=1)", "padding",
    "mean pooling sums the encoder outputs of pad positions too (only divides by the true length)",
    "pad content change moves logits by {pad_content_effect:.3g}; sample alone at true length differs by {trim_effect:.3g}")
bug("transformer_layer", "scale-factor", "/ self.d_head", "numeric",
    "scores divided by d_head instead of sqrt(d_head)",
    "attention output differs from F.scaled_dot_product_attention by {diff_vs_sdpa:.3g} and equals SDPA with scale=1/d_head ({diff_vs_sdpa_scale_1_over_d:.3g})")
bug("causal_lm", "softmax-axis", "dim=-2)", "causal",
    "softmax normalises over the query axis (dim=-2) instead of the key axis, so each weight depends on later queries",
    "future tokens change earlier logits by up to {causal_effect:.3g}; changing the last token changes position-0 logits by {last_token_changes_first_logits:.3g}",
    also_ok=["causal-leak"])
bug("spam_classifier", "dropout-eval", "attn = F.dropout(attn, p=self.dropout)", "random",
    "F.dropout is called without training=self.training, so attention dropout stays active in eval mode",
    "two eval passes of the same model differ by {eval_pass_diff:.3g}; rebuilt models with different RNG seeds differ by {rebuilt_diff_seed_diff:.3g}; with p=0 passes agree ({diff_with_p0:.3g})",
    also_ok=["nondeterministic"])
bug("gpt_small", "head-split", "k = self.key(x).view(B, self.n_head, T", "causal",
    "heads split with view(B, H, T, d) directly from (B, T, C) without a transpose, so each 'position' mixes features of several real positions, including future ones",
    "future tokens change earlier logits by up to {causal_effect:.3g}; attention differs from SDPA(is_causal) with a correct split by {diff_vs_sdpa_causal:.3g}",
    also=["q = self.query(x).view(B, self.n_head, T", "v = self.value(x).view(B, self.n_head, T"], also_ok=["causal-leak"])
bug("annotated_encoder", "mask-value", "scores.masked_fill(mask == 0, 0)", "padding",
    "padded keys are filled with 0 instead of a large negative value, so they still get softmax weight",
    "changing pad tokens (mask unchanged) moves real outputs by {pad_content_effect:.3g}; trimmed sample differs by {trim_effect:.3g}",
    also_ok=["padding-leak"])
bug("mini_gpt", "layernorm-axis", "mean = x.mean(dim=1, keepdim=True)", "causal",
    "hand-written LayerNorm normalises over the sequence axis (dim=1) instead of the feature axis, mixing future positions into every position",
    "future tokens change earlier logits by up to {causal_effect:.3g}; differs from F.layer_norm by {diff_vs_F_layer_norm:.3g}",
    also=["var = ((x - mean) ** 2).mean(dim=1"], also_ok=["causal-leak"])
bug("news_classifier", "positional-axis", "return x + self.pe[: x.size(0), :]", "axis",
    "the (max_len, 1, d) sinusoid table is sliced by x.size(0) (the batch size) on batch-first input, so each sample gets one constant vector and positions get none",
    "reordering the batch changes a sample's logits by {batch_order_effect:.3g}; reversing the tokens of a sample changes its logits by only {token_shuffle_effect:.3g}; the added table varies over positions by {pe_variation_over_positions}",
    also=["pe = pe.unsqueeze(0).transpose(0, 1)"], also_ok=["batch-leak"])
bug("review_classifier", "mask-after-softmax", "probs = probs * attention_mask", "padding",
    "padding mask multiplied into the probabilities after the softmax without renormalising; pad logits remain in the denominator",
    "pad content change moves logits by {pad_content_effect:.3g}; trimmed sample differs by {trim_effect:.3g}; row sums drop to {min_row_sum_sample1:.3g}",
    also=["probs = F.softmax(scores, dim=-1)"], also_ok=["padding-leak"])
bug("sequence_embedder", "batch-leak", "h = h.view(T, B, -1)", "batch",
    "batch-first (B, T, d) activations are turned into sequence-first with view instead of transpose, so the encoder's 'sequences' mix tokens of different samples",
    "sample run alone differs from batched by {alone_vs_batched:.3g}; changing sample 2 changes samples 0-1 by {other_sample_change_effect:.3g}",
    also_ok=["axis-mismatch"])
bug("lyrics_lm", "causal-leak", "mask = torch.triu(torch.ones(T, T, device=x.device))", "causal",
    "triu (upper triangle incl. diagonal) is used as the keep-mask, so every position attends to itself and the future instead of the past",
    "future tokens change earlier logits by up to {causal_effect:.3g}; last token changes position 0 by {last_token_changes_first:.3g}",
    also_ok=["mask-polarity"])
bug("vit_block", "scale-factor", "self.scale = d_model ** -0.5", "numeric",
    "scores scaled by 1/sqrt(d_model) instead of 1/sqrt(d_head)",
    "output differs from SDPA by {diff_vs_sdpa:.3g}; equals SDPA with scale=1/sqrt(d_model) ({diff_vs_sdpa_scale_1_over_sqrt_dmodel:.3g})")
bug("sequence_encoder", "mask-axis", "mask = pad_mask.unsqueeze(1).unsqueeze(-1)", "padding",
    "padding mask broadcast as (B,1,T,1), masking pad query rows instead of pad key columns, so real queries attend to pads",
    "sample alone at true length differs by {trim_effect:.3g}; appending 3 more pads changes real outputs by {extra_padding_effect:.3g}",
    also_ok=["padding-leak"])
bug("attention_from_scratch", "unstable-softmax", "e = torch.exp(scores)", "numeric",
    "hand-written softmax exponentiates without subtracting the row max; overflows to inf/NaN for large logits",
    "matches SDPA at unit scale ({scale1_diff_vs_sdpa:.3g}) but with inputs x10 / x30 the NaN fraction is {nan_frac_out_x10:.3g} / {nan_frac_out_x30:.3g} while SDPA stays finite ({nan_frac_ref_x30})",
    consequence=["nan"])
bug("ner_tagger", "nan", "attn_bias = pad_mask[:, None, None, :].float() * float(\"-inf\")", "numeric",
    "additive mask built as mask * -inf: the kept positions become 0 * -inf = NaN",
    "NaN fraction of the output {nan_frac_output:.3g} (real positions {nan_frac_output_real_positions:.3g}); NaN fraction of the bias {nan_frac_bias:.3g}",
    also_ok=["mask-value"])
bug("postnorm_encoder", "layernorm-variance", "var = x.var(-1, keepdim=True)", "numeric",
    "hand-written LayerNorm uses the unbiased variance (torch.var default), unlike nn.LayerNorm",
    "differs from F.layer_norm by {diff_vs_F_layer_norm:.3g} (std ratio {output_std_ratio_ref_over_custom:.4g} = sqrt(16/15)); model output vs nn.LayerNorm swapped in: {model_diff_vs_nn_LayerNorm:.3g}")
bug("time_major_block", "causal-diagonal", "diagonal=0).bool()", "causal",
    "triu(diagonal=0) also masks the diagonal; position 0 has every key filled with -1e9, softmax becomes uniform over all (future) keys",
    "changing positions 1..T-1 changes position 0 by {future_change_effect_on_position0:.3g}; max future->past effect {causal_effect:.3g}",
    also_ok=["causal-leak", "fully-masked-row"])
bug("tf_style_encoder", "softmax-axis", "weights = F.softmax(logits, 0)", "batch",
    "softmax taken over dim 0 (the batch) instead of the key axis",
    "sample alone differs from batched by {alone_vs_batched:.3g}; changing sample 2 changes sample 0 by {other_sample_change_effect:.3g}",
    also_ok=["batch-leak"])
bug("decoder_stack", "axis-mismatch", "x = self.norm2(memory + self.dropout(ca))", "axis",
    "cross-attention residual adds the encoder memory (length S) instead of the decoder stream (length T); only runs because S == T",
    "permuting memory tokens (with their mask) changes the output by {memory_permutation_effect:.3g} although cross-attention is order-free; memory[2] directly moves decoder position 2 by {memory_pos2_change_effect_on_tgt_pos2:.3g}; S != T raises: {S_ne_T}",
    also_ok=["shape-error", "padding-leak"], consequence=["shape-error"])
bug("token_encoder", "mask-polarity", "att.masked_fill(~key_padding_mask", "padding",
    "key_padding_mask is True at pads but is inverted before masked_fill, so real keys are masked and only pads are attended",
    "changing pad tokens moves real outputs by {pad_content_effect:.3g}; changing a real token moves another real token by {real_token_change_effect_on_other_real:.3g}",
    also_ok=["padding-leak"])
bug("gpt_flash", "head-merge", "y = y.contiguous().view(B, T, C)", "causal",
    "heads merged with view(B, T, C) from (B, H, T, d) without transposing back, mixing positions (incl. future ones) into each output row",
    "future tokens change earlier logits by up to {causal_effect:.3g}; attention differs from correct merge by {diff_vs_correct_merge:.3g}",
    also_ok=["causal-leak"])
bug("rnn_classifier", "padding-leak", "last = output[:, -1, :]", "padding",
    "unpacked GRU output taken at the last time step, which is a pad step for shorter sequences",
    "pad content change moves logits by {pad_content_effect:.3g}; sample alone at true length differs by {trim_effect:.3g}")
bug("annotated_decoder", "mask-value", "scores.masked_fill(mask == 0, -1e-9)", "causal",
    "future positions filled with -1e-9 (practically 0) instead of -1e9, so the causal mask has no effect",
    "future tokens change earlier log-probs by up to {causal_effect:.3g}; last token changes position 0 by {last_token_changes_first:.3g}",
    also_ok=["causal-leak"])
bug("packed_lm_a", "fully-masked-row", "valid = segment_ids > 0", "numeric",
    "packed documents use segment ids 0,1,2 but the key-validity test is > 0, so every token of document 0 has no visible key (fully masked row) -> NaN, which then spreads",
    "{real_query_rows_without_any_key} real query rows have no allowed key; NaN fraction in segment-0 outputs {nan_frac_segment0_outputs:.3g}, overall {nan_frac_all:.3g}",
    consequence=["nan"])
bug("sdpa_lm", "causal-leak", "attn_mask = torch.triu(torch.ones(T, T, device=input_ids.device)).bool()", "causal",
    "F.scaled_dot_product_attention treats a boolean attn_mask as True = attend; triu keeps the future and drops the past",
    "future tokens change earlier logits by up to {causal_effect:.3g}; last token changes position 0 by {last_token_changes_first:.3g}; the first token does not affect the last ({first_token_changes_last:.3g})",
    also_ok=["mask-polarity"])
bug("small_init_encoder", "layernorm-variance", "return self.weight * (x - mean) / (std + self.eps) + self.bias", "numeric",
    "hand-written LayerNorm adds eps outside the square root (std + eps) instead of sqrt(var + eps)",
    "on the (std 0.02) embeddings it differs from F.layer_norm by {diff_vs_F_layer_norm_on_embeddings:.3g} (relative {relative:.3g}); on std-1e-3 input by {diff_vs_F_layer_norm_std1e_3_input:.3g}; model vs nn.LayerNorm: {model_diff_vs_nn_LayerNorm:.3g}")
bug("time_major_encoder", "head-split", "q = q.contiguous().reshape(bsz * self.num_heads, tgt_len, self.head_dim)", "batch",
    "sequence-first (T, B, E) projections reshaped straight to (B*H, T, d) without the transpose, mixing time steps and samples across heads",
    "sample alone differs from batched by {alone_vs_batched:.3g}; pad content moves real outputs by {pad_content_effect:.3g}; differs from nn.MultiheadAttention by {diff_vs_nn_MultiheadAttention:.3g}",
    also=["k = k.contiguous().reshape(bsz * self.num_heads", "v = v.contiguous().reshape(bsz * self.num_heads"], also_ok=["batch-leak", "padding-leak"])
bug("cloze_lm", "nondeterministic", "prob = torch.rand(input_ids.shape", "random",
    "MLM token masking is done inside forward unconditionally (also in eval), so outputs are random",
    "two eval passes of the same model differ by {eval_pass_diff:.3g}; rebuilt with different seeds by {rebuilt_diff_seed_diff:.3g}",
    also=["selected = (prob < self.mlm_prob)"], also_ok=["dropout-eval"])
bug("patch_transformer", "scale-factor", "attn = q @ k.transpose(-2, -1)", "numeric",
    "attention scores are not scaled by 1/sqrt(d_head)",
    "differs from SDPA by {diff_vs_sdpa:.3g}; equals SDPA with scale=1 ({diff_vs_sdpa_scale_1:.3g})")
bug("char_transformer", "mask-after-softmax", "wei = wei * self.tril[:T, :T]", "causal",
    "causal mask multiplied in after the softmax without renormalising; the softmax denominator still contains the future logits",
    "future tokens change earlier logits by up to {causal_effect:.3g}; last token changes position 0 by {last_token_changes_first:.3g}",
    also=["wei = F.softmax(wei, dim=-1)"], also_ok=["causal-leak"])
bug("time_major_tagger", "positional-axis", "return x + self.pe[:, : x.size(1)]", "axis",
    "a batch-first (1, max_len, d) table is sliced by x.size(1) on sequence-first (T, B, d) input, so positions are added along the batch axis",
    "reordering the batch changes outputs by {batch_order_effect:.3g}; reversing a sample's tokens only reverses its outputs (gap {reversed_tokens_equivariance_gap:.3g}), i.e. no positional information",
    also_ok=["batch-leak"])
bug("mha_classifier", "mask-axis", "attn_mask = torch.zeros(B, T, T).masked_fill(pad.unsqueeze(2), -1e4)", "padding",
    "padding expanded along the query axis (B, T, 1) for attn_mask, masking pad query rows and leaving pad keys visible",
    "sample alone at true length differs by {trim_effect:.3g}; 3 extra pads change the logits by {extra_padding_effect:.3g}",
    also_ok=["padding-leak"])
bug("blog_classifier", "softmax-axis", "attn = torch.softmax(scores, dim=1)", "padding",
    "softmax over dim=1 (heads) instead of the key axis; masked keys get weight 1/H",
    "sample alone at true length differs by {trim_effect:.3g}; attention differs from SDPA by {diff_vs_sdpa:.3g}",
    also_ok=["padding-leak"])
bug("encoder_v2", "layernorm-axis", "mu = x.mean(dim=0, keepdim=True)", "batch",
    "hand-written norm computes statistics over dim 0 (the batch) instead of the feature axis",
    "changing sample 2 changes sample 0 by {other_sample_change_effect:.3g}; running only the first two samples changes them by {batch_subset_effect:.3g}; differs from F.layer_norm by {diff_vs_F_layer_norm:.3g}",
    also=["sigma2 = x.var(dim=0, keepdim=True, unbiased=False)"], also_ok=["batch-leak"])
bug("keras_port_classifier", "axis-mismatch", "self.att = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout)", "batch",
    "nn.MultiheadAttention defaults to batch_first=False but receives (B, T, d); it attends across the batch at each position",
    "sample alone differs from batched by {alone_vs_batched:.3g}; changing sample 2 changes samples 0-1 by {other_sample_change_effect:.3g}",
    also=["attn_output, _ = self.att(inputs, inputs, inputs)"], also_ok=["batch-leak"])
bug("faq_encoder", "mask-value", "log_mask = torch.log(attention_mask.float() + 1e-2)", "padding",
    "additive log-mask with an epsilon gives pads only log(0.01) = -4.6, so they keep about 1% weight each",
    "pad content change moves real outputs by {pad_content_effect:.3g}; trimmed sample differs by {trim_effect:.3g}; pad bias {added_bias_on_pads:.3g}",
    also_ok=["padding-leak"])
bug("window_lm", "causal-leak", "blocked = dist.abs() > self.window", "causal",
    "sliding-window LM blocks only |i-j| > w, so each position sees w future tokens",
    "future tokens change earlier logits by up to {causal_effect:.3g}; the next token changes the current logits by {next_token_changes_current_logits:.3g}")
bug("bmm_encoder", "head-merge", "ctx = ctx.view(B, T, D)", "padding",
    "(B*H, T, d) context viewed directly as (B, T, D) without moving heads next to features; positions (incl. pads) are mixed",
    "pad content moves real outputs by {pad_content_effect:.3g}; trimmed sample differs by {trim_effect:.3g}; differs from SDPA + correct merge by {diff_vs_sdpa:.3g}",
    also_ok=["padding-leak"])
bug("homework_encoder", "dropout-eval", "keep = (torch.rand_like(x) >= self.p)", "random",
    "custom Dropout ignores self.training and drops activations in eval mode",
    "two eval passes differ by {eval_pass_diff:.3g}; rebuilt with different seeds by {rebuilt_diff_seed_diff:.3g}; with p=0 {diff_with_p0:.3g}",
    also_ok=["nondeterministic"])
bug("length_classifier", "fully-masked-row", "pair_mask = valid[:, :, None] & valid[:, None, :]", "numeric",
    "mask is the outer product of query and key validity, so pad query rows are fully masked (-inf everywhere) -> NaN rows, which the next layer mixes into real tokens through the values",
    "{fully_masked_pad_query_rows} fully masked rows; NaN fraction of padded samples' logits {nan_frac_padded_samples:.3g} (unpadded sample {nan_frac_unpadded_sample:.3g})",
    also_ok=["mask-axis", "nan"], consequence=["nan"])
bug("decoder_block", "unstable-softmax", "weights = torch.exp(scores) / torch.exp(scores).sum", "numeric",
    "softmax written as exp(s)/sum(exp(s)) without subtracting the max; overflows for large logits",
    "matches SDPA at unit scale ({diff_vs_sdpa:.3g}); with inputs x30 the NaN fraction of the attention output is {nan_frac_attn_x30:.3g} vs {nan_frac_ref_x30} for SDPA",
    consequence=["nan"])
bug("next_token_model", "causal-diagonal", "keep = torch.tril(torch.ones(T, T, device=x.device), diagonal=-1)", "numeric",
    "keep-mask tril(diagonal=-1) excludes the diagonal; position 0 has no visible key -> NaN that spreads to all positions in the next layer",
    "{query_rows_without_keys} query row without keys; NaN fraction of position-0 logits {nan_frac_position0:.3g}, of all logits {nan_frac_output:.3g}",
    also_ok=["fully-masked-row"], consequence=["nan"])
bug("fixed_length_classifier", "batch-leak", "x = x.reshape(B, T * self.d_model)", "batch",
    "sequence-first encoder output (T, B, d) reshaped to (B, T*d) without transposing, so each row mixes several samples",
    "sample alone differs from batched by {alone_vs_batched:.3g}; changing sample 2 changes samples 0-1 by {other_sample_change_effect:.3g}",
    also_ok=["axis-mismatch"])

ok("encoder_stack", "post-norm encoder, key_padding_mask True=pad filled with -inf over keys, view+transpose heads",
   "pad content {pad_content}, trimmed sample {trim:.2g}, batch {batch:.2g}, attention vs SDPA {ref_sdpa:.2g}")
ok("time_major_attention", "sequence-first (T,B,E) attention with the (T, B*H, d).transpose split used by nn.MultiheadAttention",
   "pad content {pad_content}, batch {batch:.2g}, vs nn.MultiheadAttention {ref_mha:.2g}")
ok("vit_small", "ViT with conv patches, cls token, pre-norm nn.TransformerEncoderLayer",
   "batch {batch:.2g}, repeat {repeat}, cross-sample {cross_sample}, own effect {own_effect:.3g}")
ok("translator", "nn.Transformer (sequence-first) with pad id 1, (max_len,1,d) table sliced by x.size(0) on (T,B,d) input",
   "target causality {causal_effect}, src trim {trim:.2g}, batch {batch:.2g}")
ok("char_lm", "per-head causal attention with tril buffer and einsum",
   "causality {causal_effect}, head vs SDPA(is_causal) {ref_sdpa_causal:.2g}, repeat {repeat}")
ok("gpt_mini", "GPT with F.scaled_dot_product_attention(is_causal=True) and tied weights",
   "causality {causal_effect}, batch {batch:.2g}, prefix consistency {prefix_consistency}")
ok("incremental_lm", "KV-cache decoder: prompt in parallel, the rest step by step with past offset in the causal mask",
   "causality {causal_effect}, vs full parallel SDPA(is_causal) pass {ref_full_causal_pass:.2g}")
ok("prefix_lm", "prefix LM: bidirectional inside the per-sample prefix, causal after it (SDPA boolean keep-mask)",
   "future beyond prefix {future_beyond_prefix_effect}, batch {batch:.2g}, in-prefix bidirectional effect {in_prefix_bidirectional_effect:.3g} (intended)")
ok("code_lm", "ALiBi causal LM, no positional embedding, -inf above the diagonal",
   "causality {causal_effect}, attention vs SDPA with ALiBi bias {ref_sdpa_alibi:.2g}")
ok("llama_mini", "grouped-query attention (4 q heads, 2 kv heads) with repeat_interleave, additive -inf triu(1) mask",
   "causality {causal_effect}, vs SDPA(enable_gqa) {ref_sdpa_gqa:.2g}")
ok("relative_encoder", "relative position bias (clipped distance buckets) plus finfo.min padding fill, scaled",
   "pad content {pad_content}, trim {trim:.2g}, batch {batch:.2g}")
ok("paraphrase_encoder", "learned temperature initialised to sqrt(d_head), torch.where -inf padding",
   "pad content {pad_content}, trim {trim:.2g}, vs SDPA at init {ref_sdpa_at_init:.2g}")
ok("fairseq_encoder", "fairseq-style: scale folded into q, bmm over (B*H), pad id 1",
   "trim {trim:.2g}, batch {batch}, vs SDPA {ref_sdpa:.2g}")
ok("roberta_mlm", "RoBERTa-like MLM, pad id 1, position ids from cumsum, (1-mask)*-10000 additive mask",
   "pad content {pad_content}, trim {trim:.2g}, batch {batch:.2g}")
ok("chat_lm", "left-padded GPT: positions from attention_mask cumsum, causal & key mask with finfo.min, pad rows attend to themselves",
   "trim of left pads {trim:.2g}, pad content {pad_content}, causality (all rows) {causal_effect}, no NaN ({any_nan})")
ok("seq2seq_model", "hand-written encoder-decoder, memory mask from src lengths, causal tril target mask",
   "target causality {causal_effect}, src pad content {src_pad_content}, src trim {src_trim:.2g}, batch {batch:.2g}")
ok("gru_classifier", "bidirectional GRU with pack_padded_sequence(enforce_sorted=False)",
   "trim {trim:.2g}, pad content {pad_content}")
ok("transformer_classifier", "nn.TransformerEncoder with attention_mask==0 as key padding, masked mean pooling",
   "trim {trim:.2g}, pad content {pad_content}")
ok("pos_tagger", "(1,max_len,d) sinusoid table sliced by x.size(1) on batch-first input, pad id 1 tagger",
   "trim {trim:.2g}, batch order {batch_order}, position sensitivity {position_sensitivity:.3g}")
ok("prenorm_encoder", "hand LayerNorm with biased variance and rsqrt(var+eps), pre-norm encoder with src_mask (B,1,1,T)",
   "LN vs F.layer_norm {ln_vs_F_layer_norm:.2g} (small variance {ln_vs_F_small_var:.2g}), pad content {pad_content}, trim {trim:.2g}")
ok("gpt_tiny", "RMSNorm GPT with einops and SDPA(is_causal)",
   "causality {causal_effect}, batch {batch}, prefix {prefix_consistency}")
ok("memory_encoder", "learned memory tokens concatenated to keys/values with the key padding mask extended by False",
   "pad content {pad_content}, trim {trim:.2g}")
ok("einops_encoder", "einops rearrange/repeat for heads and mask, -inf over pad keys",
   "pad content {pad_content}, trim {trim:.2g}, vs SDPA {ref_sdpa:.2g}")
ok("cls_encoder", "additive float mask torch.where(keep, 0, -inf) passed to SDPA",
   "pad content {pad_content}, trim {trim:.2g}")
ok("language_id_model", "bmm over (B*H) with the pad mask repeat_interleave'd over heads (b-major)",
   "trim {trim:.2g}, vs SDPA {ref_sdpa:.2g}")
ok("poetry_lm", "multi-query attention (one shared k/v head broadcast), torch.where causal mask",
   "causality {causal_effect}, vs SDPA {ref_sdpa:.2g}")
ok("cross_decoder", "pre-norm decoder with causal self-attention and cross-attention, 0/1 float src_mask -> (1-m)*-1e9",
   "causality {causal_effect}, memory pad content {memory_pad_content}, memory trim {memory_trim:.2g}")
ok("story_lm", "nn.MultiheadAttention(batch_first=True) with bool causal attn_mask (True=blocked) and key_padding_mask, right padding",
   "causality {causal_effect}, trim {trim:.2g}, batch {batch}")
ok("time_major_classifier", "sequence-first tokens (T,B), nn.MultiheadAttention(batch_first=False), mask (src==pad).t(), masked mean over dim 0",
   "trim {trim:.2g}, extra padding {extra_padding:.2g}")
ok("rotary_lm", "rotary embeddings (rotate_half), causal triu(1) -inf",
   "causality {causal_effect}, prefix {prefix_consistency:.2g}, batch {batch:.2g}")
ok("local_encoder", "bidirectional local window |i-j|<=w plus padding, NaN rows of pad queries zeroed",
   "pad content {pad_content}, trim {trim:.2g}, far token {far_token_effect}, near token {near_token_effect:.3g}")
ok("fast_lm", "causal linear attention (elu+1 features, cumsum)",
   "causality {causal_effect}, vs quadratic masked reference {ref_quadratic_masked:.2g}")
ok("gru_attention_classifier", "unidirectional unpacked GRU (right padding cannot leak backwards) + masked additive attention pooling",
   "trim {trim:.2g}, pad content {pad_content}")
ok("question_classifier", "masked max pooling (pads filled with -inf), pad id 1",
   "trim {trim:.2g}, extra padding {extra_padding}")
ok("sentence_encoder", "scores laid out (keys, queries): softmax over dim=-2 is the key axis; mask broadcast on dim -2 is the key mask",
   "pad content {pad_content}, trim {trim:.2g}, vs SDPA {ref_sdpa:.2g}")
ok("attention_block", "hand softmax with max subtraction",
   "vs SDPA rel {rel_diff_vs_sdpa:.2g}; at x100 inputs rel {rel_diff_vs_sdpa_x100:.2g}, NaN {nan_frac_x100}; pad content {pad_content}")
ok("time_major_decoder", "sequence-first causal attention with exp(s - logsumexp(s))",
   "causality {causal_effect}, vs SDPA(is_causal) at x20 inputs rel {rel_diff_vs_sdpa_x20:.2g}")
ok("retrieval_reader", "cross-attention with kdim != qdim, torch.where(src_mask, s, finfo.min)",
   "doc pad content {pad_content}, trim {trim:.2g}, key permutation {key_permutation:.2g}")
ok("translation_model", "nn.TransformerEncoder/Decoder batch_first with tgt_mask, tgt/memory key padding",
   "target causality {causal_effect}, trim {trim:.2g}, batch {batch:.2g}")
ok("topic_classifier", "F.dropout(..., training=self.training) everywhere",
   "eval passes {eval_pass_diff}, seeds {seed_diff}, train-mode passes differ {train_mode_pass_diff:.3g} (flag works), trim {trim:.2g}")
ok("nli_model", "BERT pair classifier: attention_mask 1=keep as boolean SDPA attn_mask (True=attend)",
   "pad content {pad_content}, trim {trim:.2g}")
ok("image_classifier", "SimpleViT with einops patches, mean pooling over patches",
   "batch {batch:.2g}, repeat {repeat}, attention vs SDPA {ref_sdpa:.2g}")
ok("word_lm", "sequence-first nn.TransformerEncoder with generate_square_subsequent_mask and is_causal",
   "causality {causal_effect}, batch {batch:.2g}")
ok("packed_lm_b", "packed documents: block-diagonal & causal SDPA mask, pads are their own segment (-1)",
   "each document vs run alone {per_document_vs_alone:.2g}, causality {causal_effect}, pad content {pad_content}")
ok("hybrid_classifier", "pad id 3, masked Transformer layer + packed BiGRU, mean over pad_packed zeros",
   "trim {trim:.2g}, extra padding {extra_padding:.2g}")
ok("set_encoder", "latents cross-attend to a padded set (kdim/vdim), then self-attend",
   "pad content {pad_content}, trim {trim:.2g}, set permutation {set_permutation:.2g}")
ok("intent_classifier", "left padding with pad id 2, positions from cumsum, classify the last token",
   "trim of left pads {trim:.2g}, extra left padding {extra_left_padding}")
ok("ticket_classifier", "additive mask = log(0/1 mask) (log 0 = -inf)",
   "pad content {pad_content}, trim {trim:.2g}")
ok("dialogue_lm", "boolean tril keep-mask & key mask passed to SDPA (True = attend)",
   "causality {causal_effect}, trim {trim:.2g}, pad content {pad_content}")
ok("sentiment_model", "batch-first input transposed to and from nn.MultiheadAttention(batch_first=False)",
   "batch {batch:.2g}, trim {trim:.2g}, pad content {pad_content}")
