"""Prompted transcription with a tiny Whisper (transformers, random weights).

Each clip is decoded with its own text prompt (previous-segment context); prompts have
different lengths, so they are left-padded into one batch and the padding is masked with
decoder_attention_mask.
"""
import torch
import torch.nn as nn
from transformers import WhisperConfig, WhisperModel


class PromptedWhisper(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = WhisperConfig(vocab_size=64, d_model=32, encoder_layers=1, decoder_layers=2,
                            encoder_attention_heads=4, decoder_attention_heads=4,
                            encoder_ffn_dim=64, decoder_ffn_dim=64, num_mel_bins=8,
                            max_source_positions=8, max_target_positions=32, pad_token_id=0,
                            bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
        cfg._attn_implementation = "sdpa"
        self.model = WhisperModel(cfg)
        self.proj_out = nn.Linear(32, 64, bias=False)

    def forward(self, input_features, decoder_input_ids, decoder_attention_mask):
        out = self.model(input_features=input_features, decoder_input_ids=decoder_input_ids,
                         decoder_attention_mask=decoder_attention_mask)
        return self.proj_out(out.last_hidden_state)


def build():
    torch.manual_seed(0)
    model = PromptedWhisper().eval()
    feats = torch.randn(2, 8, 16)
    ids = torch.randint(3, 64, (2, 10))
    mask = torch.ones(2, 10, dtype=torch.long)
    mask[1, :4] = 0
    ids[mask == 0] = 0
    return model, (feats, ids, mask)
