"""Sequence log-likelihood scoring (e.g. for reranking candidate answers) with a (tiny,
randomly initialized) OPT model from transformers. Candidates are right-padded.
"""
import torch
import torch.nn as nn
from transformers import OPTConfig, OPTForCausalLM

PAD, BOS = 1, 2


class OPTScorer(nn.Module):
    def __init__(self):
        super().__init__()
        config = OPTConfig(
            vocab_size=120, hidden_size=32, num_hidden_layers=2, ffn_dim=64, num_attention_heads=4,
            max_position_embeddings=64, word_embed_proj_dim=32, pad_token_id=PAD, bos_token_id=BOS,
            eos_token_id=BOS, dropout=0.1, init_std=0.2,
        )
        self.lm = OPTForCausalLM(config)

    def forward(self, input_ids, attention_mask):
        logits = self.lm(input_ids=input_ids, attention_mask=attention_mask).logits
        logprobs = logits[:, :-1].log_softmax(dim=-1)
        token_lp = logprobs.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
        return (token_lp * attention_mask[:, 1:]).sum(dim=-1)      # (B,) log P(candidate)


def build():
    torch.manual_seed(0)
    model = OPTScorer().eval()
    lengths = torch.tensor([12, 9, 6])
    attention_mask = (torch.arange(12)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(3, 120, (3, 12)).masked_fill(attention_mask == 0, PAD)
    input_ids[:, 0] = BOS
    return model, (input_ids, attention_mask)
