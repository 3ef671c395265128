import torch
import torch.nn as nn
from transformers import BartConfig, BartForConditionalGeneration


def shift_tokens_right(labels, pad_token_id, decoder_start_token_id):
    shifted = labels.new_zeros(labels.shape)
    shifted[:, 1:] = labels[:, :-1].clone()
    shifted[:, 0] = decoder_start_token_id
    return shifted.masked_fill(shifted == -100, pad_token_id)


class Summarizer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = BartForConditionalGeneration(config)

    def forward(self, input_ids, attention_mask, labels):
        dec_in = shift_tokens_right(labels, self.config.pad_token_id, self.config.decoder_start_token_id)
        dec_mask = (dec_in != self.config.pad_token_id).long()
        dec_mask[:, 0] = 1
        out = self.model(input_ids=input_ids, attention_mask=attention_mask,
                         decoder_input_ids=dec_in, decoder_attention_mask=dec_mask)
        return out.logits


def build():
    torch.manual_seed(0)
    cfg = BartConfig(vocab_size=64, d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
                     decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=32,
                     pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2, forced_eos_token_id=2)
    model = Summarizer(cfg).eval()
    src = torch.ones(2, 12, dtype=torch.long)
    for b, n in enumerate([12, 7]):
        src[b, 0] = 0
        src[b, 1:n - 1] = torch.randint(3, 64, (n - 2,))
        src[b, n - 1] = 2
    labels = torch.full((2, 8), -100, dtype=torch.long)
    for b, n in enumerate([8, 5]):
        labels[b, :n] = torch.randint(3, 64, (n,))
        labels[b, n - 1] = 2
    return model, ((src), (src != 1).long(), labels)
