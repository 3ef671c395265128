"""Code-review comment generation with a small StarCoder2 decoder (GQA + sliding-window attention).

Each training example is `<diff hunk> <sep> <review comment>`, right-padded to the batch maximum.
Only comment tokens carry loss. Position ids are derived from the attention mask, so the same
collate function also serves left-padded generation batches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import Starcoder2Config, Starcoder2ForCausalLM

SEP_ID, PAD_ID = 3, 0


class ReviewCommentLM(nn.Module):
    def __init__(self, config: Starcoder2Config):
        super().__init__()
        self.lm = Starcoder2ForCausalLM(config)

    def forward(self, input_ids, lengths):
        T = input_ids.size(1)
        attention_mask = (torch.arange(T, device=input_ids.device)[None] < lengths[:, None]).long()
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        out = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, use_cache=False)
        return out.logits


def comment_loss(logits, input_ids, lengths):
    """next-token loss on the comment part only (after the first <sep>, before the padding)"""
    T = input_ids.size(1)
    pos = torch.arange(T, device=input_ids.device)[None]
    sep_at = (input_ids == SEP_ID).float().argmax(-1, keepdim=True)
    target_ok = (pos > sep_at) & (pos < lengths[:, None])
    labels = input_ids.masked_fill(~target_ok, -100)
    return F.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten(), ignore_index=-100)


def build():
    torch.manual_seed(0)
    config = Starcoder2Config(vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                              num_key_value_heads=2, intermediate_size=64, sliding_window=6,
                              max_position_embeddings=64, bos_token_id=1, eos_token_id=2, pad_token_id=PAD_ID)
    model = ReviewCommentLM(config).eval()
    lengths = torch.tensor([16, 12, 9])
    input_ids = torch.randint(4, 128, (3, 16))
    input_ids[torch.arange(3), torch.tensor([9, 7, 5])] = SEP_ID
    input_ids[torch.arange(16)[None] >= lengths[:, None]] = PAD_ID
    return model, (input_ids, lengths)
