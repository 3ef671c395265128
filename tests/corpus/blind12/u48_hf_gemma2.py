"""Per-token log-likelihoods of right-padded texts under a tiny random Gemma-2 model.

Gemma-2 alternates sliding-window and global attention layers, soft-caps attention and
final logits, and scales queries by query_pre_attn_scalar ** -0.5 rather than head_dim **
-0.5 (all as configured by the library). The returned table holds log p(x_t | x_<t) for
t >= 1.
"""
import torch
import torch.nn as nn
from transformers import Gemma2Config, Gemma2ForCausalLM


class TokenLogLikelihood(nn.Module):
    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    def forward(self, input_ids, attention_mask):
        logits = self.lm(input_ids=input_ids, attention_mask=attention_mask).logits
        logp = torch.log_softmax(logits[:, :-1].float(), dim=-1)
        return logp.gather(-1, input_ids[:, 1:, None]).squeeze(-1)


def build():
    torch.manual_seed(48)
    config = Gemma2Config(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, query_pre_attn_scalar=24,
        sliding_window=4, attn_logit_softcapping=50.0, final_logit_softcapping=30.0,
        max_position_embeddings=64, pad_token_id=0, bos_token_id=2, eos_token_id=1,
        attn_implementation="eager")
    model = TokenLogLikelihood(Gemma2ForCausalLM(config)).eval()
    lengths = torch.tensor([12, 9, 5])
    attention_mask = (torch.arange(12)[None] < lengths[:, None]).long()
    input_ids = torch.randint(3, 64, (3, 12)).masked_fill(attention_mask == 0, 0)
    input_ids[:, 0] = 2
    return model, (input_ids, attention_mask)
