B = {}


def bug(name, expected, line, harm, why, also=(), also_ok=(), conseq=()):
    B[name] = dict(expected=list(expected), line_sub=line, also_subs=list(also), also_ok_codes=list(also_ok),
                   consequence_codes=list(conseq), harm=harm, why=why)


bug("r02_translation_model", ["causal-diagonal"], "torch.triu(torch.ones(attn_shape), diagonal=0)", "causal",
    "subsequent_mask uses triu(diagonal=0), so each target position is barred from itself; row 0 is fully masked and the -1e9 fill turns it into uniform attention over all target tokens, including future ones",
    conseq=["causal-leak", "fully-masked-row"])
bug("r04_patch_transformer", ["head-split"], ".permute(2, 0, 1, 3, 4)", "axis",
    "fused qkv permuted with (2,0,1,3,4): q,k,v come out (B,N,H,D), so attention is computed between heads of one token instead of between tokens",
    also_ok=["axis-mismatch", "softmax-axis"], conseq=["softmax-axis"])
bug("r06_nano_lm", ["causal-diagonal"], "torch.tril(torch.ones(config.block_size, config.block_size), diagonal=1)", "causal",
    "causal buffer built with tril(diagonal=1): position t may attend to t+1", conseq=["causal-leak"])
bug("r08_encoder_classifier", ["mask-polarity"], "extended_attention_mask = extended_attention_mask * torch.finfo(dtype).min", "padding",
    "extended mask is mask*finfo.min instead of (1-mask)*finfo.min: real tokens get the large negative bias and padding stays visible",
    conseq=["padding-leak"])
bug("r10_rotary_lm", ["positional-axis"], "cos, sin = self.rotary(q.shape[-2])", "axis",
    "q is (B,T,H,D) when rotary is applied, so q.shape[-2] is the head count; the cos/sin table is indexed by head and broadcast over time, and RoPE has no positional effect",
    also_ok=["axis-mismatch"])
bug("r12_object_detector", ["mask-axis"], "mask = F.interpolate(m[None].float(), size=(w, h)).to(torch.bool)[0]", "padding",
    "pixel mask resized to (w, h) for an (h, w) feature map; flattened key_padding_mask no longer lines up with the flattened features (and the sine positions are built from the wrong mask)",
    also_ok=["padding-leak"], conseq=["padding-leak"])
bug("r14_minimal_gpt", ["head-merge"], "y = y.contiguous().view(B, T, C)", "causal",
    "attention output (B,H,T,D) reshaped to (B,T,C) without transpose(1,2): rows of the merged tensor mix time steps of a head", conseq=["causal-leak"])
bug("r16_bidirectional_encoder", ["softmax-axis"], "softmax(attention_scores, dim=1)", "padding",
    "softmax over the head axis (dim=1) of (B,H,T,T) scores: additive padding mask no longer removes padded keys", conseq=["padding-leak"])
bug("r18_query_encoder", ["mask-polarity"], "key_padding_mask = attention_mask.bool()", "padding",
    "nn.MultiheadAttention key_padding_mask expects True for positions to ignore; passing the keep-mask hides real tokens and attends to pads (an unpadded row becomes all-masked -> NaN)",
    conseq=["padding-leak", "nan"])
bug("r20_causal_lm_small", ["layernorm-axis"], "variance = hidden_states.pow(2).mean(1, keepdim=True)", "causal",
    "RMSNorm reduces over dim 1 (sequence) instead of the hidden dim, so every position is normalised with statistics of later (and padded) tokens",
    conseq=["causal-leak", "padding-leak"])
bug("r22_gpt_poem", ["scale-factor"], "att = (q @ k.transpose(-2, -1)) * (1.0 / k.size(-1))", "numeric",
    "scores scaled by 1/head_dim instead of 1/sqrt(head_dim)")
bug("r24_gpt_story", ["dropout-eval"], "att = F.dropout(att, p=self.dropout)", "random",
    "functional dropout without training=self.training stays active in eval mode", also_ok=["nondeterministic"], conseq=["nondeterministic"])
bug("r26_review_classifier", ["padding-leak"], "pooled = hidden_states[:, -1]", "padding",
    "sequence classification pools the last index of right-padded inputs, i.e. a pad token's hidden state, instead of the last real token")
bug("r30_nmt_transformer", ["padding-leak"], "self.src_attn(x, m, m, tgt_mask)", "padding",
    "decoder cross-attention is given tgt_mask instead of src_mask: encoder padding is not masked (and a causal pattern is imposed on memory keys)",
    also_ok=["mask-axis"])
bug("r32_incremental_decoder", ["causal-diagonal"], "causal_mask = self.bias[:, :, key_length - query_length + 1 : key_length + 1, :key_length]", "causal",
    "cached decoding slices the causal buffer one row too far: with a multi-token chunk, new token i sees new token i+1",
    also_ok=["causal-leak"], conseq=["causal-leak"])
bug("r34_retrieval_encoder", ["padding-leak"], "embeddings = token_embeddings.mean(dim=1)", "padding",
    "sentence embedding is an unmasked mean over all positions, pads included")
bug("r36_wake_word_model", ["batch-leak"], "self.bn1 = nn.BatchNorm1d(d_model, track_running_stats=False)", "batch",
    "BatchNorm1d without running statistics normalises with the current batch in eval, so each sample depends on the rest of the batch")
bug("r38_linear_bias_lm", ["positional-axis"], "alibi_bias = torch.arange(1 - seq_len, 1, dtype=torch.int32).view(1, 1, seq_len, 1)", "axis",
    "ALiBi distance bias laid along the query axis: it is constant within each softmax row and cancels, leaving the model without positional information",
    also_ok=["mask-axis"])
bug("r40_gptj_style", ["positional-axis"], "    sin = torch.cat((sin, sin), dim=-1)[:, :, None, :]", "axis",
    "sin/cos duplicated half-split (cat) while rotate_every_two pairs adjacent dims (GPT-J interleaved convention needs repeat_interleave): the transform is not a rotation and attention depends on absolute position",
    also=["    cos = torch.cat((cos, cos), dim=-1)[:, :, None, :]"], also_ok=["axis-mismatch"])
bug("r41_window_backbone", ["mask-axis"], "shifted_x = torch.roll(x, shifts=(self.shift_size, self.shift_size), dims=(1, 2))", "axis",
    "shifted windows rolled by +shift while the region mask was built for the -shift layout: wrapped-around tokens from opposite image borders share an unmasked window",
    also=["x = torch.roll(shifted_x, shifts=(-self.shift_size, -self.shift_size), dims=(1, 2))"], also_ok=["positional-axis", "mask-polarity"])
bug("r43_gpt2_reimpl", ["head-split"], "new_shape = tensor.size()[:-2] + (num_heads, tensor.size(-2), attn_head_size)", "causal",
    "_split_heads reshapes (B,T,C) straight to (B,H,T,D) instead of view(B,T,H,D).permute(0,2,1,3): rows no longer correspond to time steps, breaking causality",
    also=["return tensor.reshape(new_shape)"], conseq=["causal-leak"])
bug("r45_gpt_small", ["mask-after-softmax"], "att = att.masked_fill(self.bias[:, :, :T, :T] == 0, 0.0)", "causal",
    "causal mask applied to probabilities after softmax: the normaliser still contains future scores and rows do not sum to 1",
    also=["        att = F.softmax(att, dim=-1)\n        att = att.masked_fill(self.bias"], conseq=["causal-leak"])
bug("r49_masked_lm_encoder", ["mask-axis"], "extended_attention_mask = attention_mask[:, None, :, None]", "padding",
    "extended mask shaped (B,1,T,1): it masks padded query rows instead of padded key columns", conseq=["padding-leak"])
bug("r51_telemetry_forecaster", ["unstable-softmax"], "    weights = scores.exp()", "numeric",
    "hand-written softmax exponentiates raw scores without subtracting the row max; large scores overflow to inf and give NaN",
    conseq=["nan"])
bug("r52_summarizer", ["softmax-axis"], "    p_attn = scores.softmax(dim=-2)", "causal",
    "attention probabilities normalised over the query axis (dim=-2) instead of keys", conseq=["causal-leak", "padding-leak"])
bug("r54_gpt_code", ["mask-value"], "att = att.masked_fill(self.bias[:, :, :T, :T] == 0, 0.0)", "causal",
    "future scores filled with 0.0 instead of -inf before softmax, so future keys keep weight", conseq=["causal-leak"])
bug("r56_fast_gpt", ["dropout-eval"], "dropout_p=self.dropout, is_causal=True", "random",
    "SDPA gets dropout_p=self.dropout unconditionally (no 'if self.training else 0'), so attention dropout runs in eval",
    also_ok=["nondeterministic"], conseq=["nondeterministic"])
bug("r58_partial_rotary_lm", ["axis-mismatch"], "key = torch.cat((key_pass, key), dim=-1)", "axis",
    "partial rotary: key re-assembled as [pass, rot] while query is [rot, pass], so rotated query dims are dotted with unrotated key dims",
    also_ok=["positional-axis"])
bug("r60_padded_batch_lm", ["fully-masked-row"], 'att = att.masked_fill(~allowed, float("-inf"))', "numeric",
    "causal+left-padding mask filled with -inf: pad query rows have no visible key, softmax yields NaN, which spreads to all positions of padded samples in the next layer",
    also_ok=["nan", "mask-value"], conseq=["nan"])
bug("r62_story_generator", ["positional-axis"], "x = x + self.pe[: x.size(0)]", "batch",
    "sequence-first (max_len,1,d) sinusoid table indexed with x.size(0) in a batch_first model: encodings follow the batch index, not the position",
    also_ok=["batch-leak"], conseq=["batch-leak"])
bug("r64_conv_mixer_lm", ["causal-leak"], "        qkv = self.dwconv(qkv.transpose(1, 2)).transpose(1, 2)", "causal",
    "depthwise conv with symmetric padding mixes the next token into q/k/v before the causal mask; a causal model needs left-only padding",
    also=["self.dwconv = nn.Conv1d(3 * dim, 3 * dim, kernel_size, padding=kernel_size // 2, groups=3 * dim)"])
bug("r66_trainer_lm", ["batch-leak"], "x = x.reshape(1, b * t, -1)", "batch",
    "batch flattened into one causal sequence without a block-diagonal document mask: later samples attend to earlier samples",
    also=["x = x.view(b, t, -1)"])
bug("r68_intent_encoder", ["layernorm-variance"], "        var = (x * x).mean(-1, keepdim=True)", "numeric",
    "LayerNorm variance computed as E[x^2] instead of E[(x-mean)^2]")
bug("r70_multimodal_perceiver", ["padding-leak"], "x = cross_attn(x, context=data) + x", "padding",
    "forward takes an input mask but does not pass it to the latent cross-attention, so padded inputs are attended")
bug("r72_efficient_vit", ["nondeterministic"], "        if self.prob == 0.0:", "random",
    "patch dropout guard lacks 'not self.training': a random token subset is dropped on every eval forward",
    also_ok=["dropout-eval"])
bug("r74_seqfirst_tagger", ["axis-mismatch"], "h = x.view(T, B, C)", "batch",
    "batch-first tensor view()-ed to (T,B,C) for a sequence-first nn.MultiheadAttention instead of transposed: attention runs across samples",
    also=["a = a.view(B, T, C)"], also_ok=["batch-leak"], conseq=["batch-leak"])
bug("r76_sound_event_tagger", ["scale-factor"], "query_states = self.q_proj(hidden_states) * self.scaling", "numeric",
    "q pre-multiplied by head_dim**-0.5 and SDPA applies its default 1/sqrt(head_dim) again (double scaling)")
bug("r80_long_context_lm", ["causal-leak"], "mask = torch.triu(tensor, diagonal=-sliding_window + 1)", "causal",
    "sliding-window mask built with triu only (lower window bound) and no tril: all future tokens are visible")
bug("r83_image_text_matcher", ["axis-mismatch"], "image_features = image_features / image_features.norm(dim=0, keepdim=True)", "batch",
    "image embeddings L2-normalised over the batch axis (dim=0) instead of the feature axis",
    also_ok=["batch-leak", "layernorm-axis"], conseq=["batch-leak"])
bug("r85_entropy_regularized_lm", ["nan"], "        entropy = -(att * att.log()).sum(dim=-1)", "numeric",
    "attention entropy uses p*log(p) on causally masked probabilities that are exactly 0: 0*log(0) is NaN, so the returned regulariser is NaN")
bug("r86_gpt_chat", ["shape-error"], "y = y.transpose(1, 2).view(B, T, C)", None,
    "view() on the non-contiguous transposed attention output raises at the first forward (needs .contiguous() or reshape)")
bug("r90_tiny_lm", ["causal-leak"], "self.mask[:, :, :T, :T].transpose(-2, -1) == 0", "causal",
    "causal buffer slice transposed before use (tril -> triu): each query sees itself and all later tokens",
    also_ok=["mask-axis"])

C = {
    "r01_gpt_lm": "nanoGPT-style GPT, tril buffer, -inf fill, softmax(-1), transpose+contiguous merge",
    "r03_text_encoder": "BERT-style encoder with config object, (1-mask)*finfo.min extended mask, CLS pooler",
    "r05_decoder_lm": "Llama-style decoder: RMSNorm, half-split RoPE, GQA repeat_kv, finfo.min causal+padding mask, left padding with cumsum positions",
    "r07_pretrained_style_encoder": "transformers BertModel from a tiny config with attention_mask",
    "r09_hier_vision": "Swin stage: window attention, relative position bias, shifted windows with region mask",
    "r11_audio_classifier": "Whisper-style encoder (conv front end, sinusoidal positions, HF bmm attention) with mean pooling over unpadded frames",
    "r13_relpos_encoder": "T5-style relative position buckets (bidirectional) with explicit 1/sqrt(d_kv) scaling and padding mask",
    "r15_multilingual_lm": "BLOOM-style ALiBi via baddbmm, key-only cumsum-aware alibi, bool causal|padding mask filled with finfo.min",
    "r17_sentence_encoder": "nn.MultiheadAttention(batch_first) with key_padding_mask = attention_mask == 0",
    "r19_pythia_like": "GPT-NeoX partial rotary (rotary_pct 0.25), fused qkv per-head layout, baddbmm, torch.where causal",
    "r21_contrastive_model": "OpenAI-CLIP-style dual encoder with (B,B) logit table, EOT pooling via argmax, causal text mask",
    "r23_latent_io_model": "Perceiver IO (einops) with input mask in the latent cross-attention and decoder queries",
    "r25_window_lm": "Mistral-style sliding-window causal mask (tril+triu band), RoPE, GQA, optional padding",
    "r27_hub_causal_lm": "transformers GPT2LMHeadModel from a tiny config",
    "r28_char_transformer": "minGPT-style GPT with separate key/query/value and tril mask buffer",
    "r29_seq2seq_base": "Annotated-Transformer encoder-decoder with src_mask and subsequent_mask(triu diagonal=1)",
    "r31_cached_generator": "GPT-2-style KV cache with the HF bias[key_len-query_len:key_len] slice (multi-token chunk)",
    "r33_sentence_embedder": "DistilBertModel with masked mean pooling (sentence-transformers style)",
    "r35_keyword_spotter": "conv front end with BatchNorm1d using running stats in eval, SDPA encoder",
    "r37_alibi_decoder": "MPT-style ALiBi with key-only bias arange(1-S,1) and causal mask",
    "r39_llama_reference": "Meta Llama reference: complex (interleaved) RoPE via view_as_complex, GQA repeat_kv, triu(-inf) mask",
    "r42_hub_llama": "transformers LlamaForCausalLM from a tiny config with left padding",
    "r44_image_classifier": "timm-style ViT: fused qkv reshape(B,N,3,H,D).permute(2,0,3,1,4), SDPA",
    "r46_library_encoder": "nn.TransformerEncoder with src_key_padding_mask and masked mean pooling",
    "r47_seqfirst_encoder": "sequence-first nn.MultiheadAttention with (B,S) key_padding_mask from lengths; pe[:x.size(0)] on a seq-first tensor",
    "r48_library_decoder": "nn.TransformerDecoder with generate_square_subsequent_mask and memory_key_padding_mask",
    "r50_sensor_forecaster": "hand-written masked softmax with max subtraction on large-magnitude features",
    "r53_keymajor_lm": "scores stored key-major (B,H,Tk,Tq) with softmax(dim=-2) and transposed (triu) visibility mask",
    "r55_patch_vit": "lucidrains vit-pytorch style ViT with einops rearrange",
    "r57_gpt2_scratch": "GPT-2 reimplementation with Conv1D, _split_heads/_merge_heads, torch.where finfo.min causal",
    "r59_batched_generation_lm": "left-padded batched causal LM, combined causal&padding mask filled with finfo.min, cumsum positions",
    "r61_word_lm": "PyTorch word_language_model TransformerModel (sequence-first, log(tril) mask, pe[:x.size(0)])",
    "r63_linear_attention_lm": "causal linear attention (elu+1 feature map) via prefix sums",
    "r65_multiquery_lm": "Falcon-style multi-query attention (one shared k/v head expanded)",
    "r67_hybrid_convnet": "ConvNeXt channels_first LayerNorm over dim 1 plus channel-major 2D MHSA",
    "r69_bart_style_seq2seq": "BART-style _make_causal_mask/_expand_mask with different source/target lengths",
    "r71_flash_gpt": "nanoGPT flash path: SDPA is_causal with dropout_p=self.dropout if self.training else 0",
    "r73_hub_vit": "transformers ViTForImageClassification from a tiny config",
    "r75_sdpa_decoder": "SDPA with bool padding attn_mask and is_causal=True together (torch 2.13 combines them), right padding",
    "r77_relpos_decoder": "T5-style unidirectional relative buckets with causal+padding mask and 1/sqrt(d_kv) scaling",
    "r78_prefix_lm": "UniLM-style 3D (B,T,T) prefix-LM mask extended with [:, None] and (1-m)*finfo.min",
    "r79_local_window_encoder": "bidirectional banded local attention with key padding",
    "r81_grouped_query_lm": "GQA with repeat_interleave on the head axis and additive triu(-inf) mask",
    "r82_prunable_encoder": "head_mask multiplied into probabilities after softmax (intended head pruning)",
    "r84_hub_dual_encoder": "transformers CLIPModel from a tiny config",
    "r87_roberta_style_classifier": "RoBERTa-style padding-aware position ids, float32 softmax, <s> classification head",
    "r88_albert_style_encoder": "ALBERT-style shared layer with (1-mask)*-10000 extended mask in fp32",
    "r89_set_detector": "DETR-style detector: pixel mask interpolated to (h, w), sine positions, key_padding_mask",
    "r91_token_drop_vit": "timm PatchDropout guarded by 'not self.training'",
    "r92_token_tagger": "encoder that zeroes pad query rows after attention; keys masked with -1e9",
    "r93_char_decoder": "SDPA with bool tril attn_mask (True = attend)",
    "r94_xformer_decoder": "x-transformers-style attention with inner_dim != dim and dim_head**-0.5 scale",
    "r95_speech_seq2seq": "Whisper-style encoder-decoder with d**-0.25 on both q and k and triu(-inf) decoder mask",
}
