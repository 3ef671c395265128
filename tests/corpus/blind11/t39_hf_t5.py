"""Seq2seq scoring with a tiny random T5ForConditionalGeneration: padded sources, padded targets with -100 labels."""
import torch
import torch.nn as nn
from transformers import T5Config, T5ForConditionalGeneration


class T5Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        config = T5Config(vocab_size=64, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2,
                          num_heads=4, relative_attention_num_buckets=8, dropout_rate=0.0,
                          pad_token_id=0, eos_token_id=1, decoder_start_token_id=0)
        self.t5 = T5ForConditionalGeneration(config)

    def forward(self, input_ids, attention_mask, decoder_input_ids, decoder_attention_mask):
        out = self.t5(input_ids=input_ids, attention_mask=attention_mask,
                      decoder_input_ids=decoder_input_ids, decoder_attention_mask=decoder_attention_mask)
        return out.logits


def build():
    torch.manual_seed(0)
    src_mask = (torch.arange(9)[None] < torch.tensor([9, 6, 4])[:, None]).long()
    tgt_mask = (torch.arange(6)[None] < torch.tensor([6, 4, 3])[:, None]).long()
    input_ids = torch.randint(2, 64, (3, 9)) * src_mask
    decoder_input_ids = torch.randint(2, 64, (3, 6)) * tgt_mask
    decoder_input_ids[:, 0] = 0  # decoder start token
    return T5Scorer().eval(), (input_ids, src_mask, decoder_input_ids, tgt_mask)
