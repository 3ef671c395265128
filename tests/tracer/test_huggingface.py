"""No false alarms on HuggingFace models built offline from tiny random configs (eager and sdpa)."""

from __future__ import annotations

import pytest
import torch

from support import run, serious

transformers = pytest.importorskip("transformers")
IMPLEMENTATIONS = ["eager", "sdpa"]


@pytest.fixture
def tokens() -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    ids = torch.randint(5, 99, (2, 7))
    mask = torch.ones(2, 7, dtype=torch.long)
    mask[1, -3:] = 0
    ids[1, -3:] = 0
    return ids, mask


def quiet():
    transformers.utils.logging.set_verbosity_error()


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_bert_with_padding(tokens, impl):
    quiet()
    torch.manual_seed(0)
    config = transformers.BertConfig(hidden_size=32, num_attention_heads=4, intermediate_size=64,
                                     num_hidden_layers=2, vocab_size=99, max_position_embeddings=32,
                                     attn_implementation=impl)
    ids, mask = tokens
    report = run(transformers.BertModel(config), (), {"input_ids": ids, "attention_mask": mask})
    assert report.summary["attention_blocks"] == 2
    assert serious(report, ("error", "warning")) == []


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_gpt2(tokens, impl):
    quiet()
    torch.manual_seed(0)
    config = transformers.GPT2Config(n_embd=32, n_head=4, n_layer=2, vocab_size=99, n_positions=32,
                                     attn_implementation=impl)
    ids, mask = tokens
    report = run(transformers.GPT2Model(config), (), {"input_ids": ids, "attention_mask": mask})
    assert report.summary["attention_blocks"] == 2
    assert serious(report, ("error", "warning")) == []


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_t5_unscaled_scores_are_its_design_not_a_warning(tokens, impl):
    quiet()
    torch.manual_seed(0)
    config = transformers.T5Config(d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4, vocab_size=99,
                                   attn_implementation=impl)
    ids, mask = tokens
    report = run(transformers.T5Model(config), (),
                 {"input_ids": ids, "attention_mask": mask, "decoder_input_ids": ids[:, :5]})
    assert report.summary["attention_blocks"] == 6
    assert serious(report, ("error", "warning")) == []  # factor 1 in transformers' T5 is folded into its init


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_bart(tokens, impl):
    quiet()
    torch.manual_seed(0)
    config = transformers.BartConfig(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                                     decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64,
                                     vocab_size=99, max_position_embeddings=32, attn_implementation=impl)
    ids, mask = tokens
    report = run(transformers.BartModel(config), (), {"input_ids": ids, "attention_mask": mask})
    assert report.summary["attention_blocks"] == 6
    assert serious(report, ("error", "warning")) == []


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_vit(impl):
    quiet()
    torch.manual_seed(0)
    config = transformers.ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                    intermediate_size=64, image_size=32, patch_size=8, attn_implementation=impl)
    report = run(transformers.ViTModel(config), (torch.randn(2, 3, 32, 32),))
    assert report.summary["attention_blocks"] == 2
    assert serious(report, ("error", "warning")) == []


class _InvertedMaskWrapper(torch.nn.Module):
    """User code around a library model: it builds the attention mask with 1 at the padding."""

    def __init__(self, config):
        super().__init__()
        self.bert = transformers.BertModel(config)

    def forward(self, ids):
        inverted = ids.eq(0).long()  # the user's line the finding must name
        return self.bert(input_ids=ids, attention_mask=inverted).last_hidden_state[:, 0]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_mask_built_by_the_user_is_named_even_when_the_library_applies_it(tokens, impl):
    quiet()
    torch.manual_seed(0)
    config = transformers.BertConfig(hidden_size=32, num_attention_heads=4, intermediate_size=64,
                                     num_hidden_layers=1, vocab_size=99, max_position_embeddings=32,
                                     attn_implementation=impl, pad_token_id=0)
    ids, _ = tokens
    report = run(_InvertedMaskWrapper(config), (ids,))
    finding = next(f for f in report.findings if f.code == "mask-polarity")
    line = next(number for number, text in enumerate(open(__file__), 1) if "the user's line the finding" in text)
    assert any(note.file.endswith("test_huggingface.py") and note.line == line for note in finding.related)


class _FourDimensionalMask(torch.nn.Module):
    """A causal LM handed a 4-D mask built from the padding alone: transformers takes a 4-D mask as the
    whole pattern, so `causal` decides whether the future is hidden."""

    def __init__(self, lm, causal: bool):
        super().__init__()
        self.lm, self.causal = lm, causal

    def forward(self, input_ids, attention_mask):
        T = input_ids.shape[1]
        keep = attention_mask.bool()[:, None, None, :].expand(-1, 1, T, T)
        if self.causal:
            keep = keep & torch.ones(T, T, dtype=torch.bool).tril()
        return self.lm(input_ids=input_ids, attention_mask=keep).logits


@pytest.mark.parametrize("causal", [False, True])
def test_a_causal_lm_declared_by_its_class_gets_the_causal_witness(tokens, causal):
    quiet()
    torch.manual_seed(0)
    config = transformers.LlamaConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, vocab_size=99,
                                      max_position_embeddings=32, attn_implementation="sdpa")
    ids, mask = tokens
    report = run(_FourDimensionalMask(transformers.LlamaForCausalLM(config), causal), (ids, mask))
    assert "causal" in report.summary["witnesses"]["ran"]
    leaks = [f for f in report.findings if f.code == "causal-leak"]
    if causal:
        assert serious(report, ("error", "warning")) == []
    else:
        assert leaks and leaks[0].witness is not None
        assert any(note.function.endswith("_FourDimensionalMask.forward") for note in leaks[0].related)
