"""Next-token scoring with a tiny Falcon (transformers, random weights, rotary positions).

Prompts are left-padded and passed with their attention mask only: no position_ids. Falcon
with rotary embeddings (alibi=False) has no absolute position table; rotary scores depend
only on the distance between query and key, so the shift of every real token by the pad
count changes nothing.
"""
import torch
import torch.nn as nn
from transformers import FalconConfig, FalconForCausalLM


class FalconScorer(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = FalconConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                           new_decoder_architecture=False, multi_query=True, alibi=False,
                           parallel_attn=True, bias=False, pad_token_id=0, bos_token_id=1, eos_token_id=2)
        cfg._attn_implementation = "sdpa"
        self.lm = FalconForCausalLM(cfg)

    def forward(self, input_ids, attention_mask):
        logits = self.lm(input_ids=input_ids, attention_mask=attention_mask).logits
        return logits.log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = FalconScorer().eval()
    ids = torch.randint(3, 64, (2, 11))
    mask = torch.ones(2, 11, dtype=torch.long)
    mask[1, :4] = 0
    ids[mask == 0] = 0
    return model, (ids, mask)
