"""DPO-style preference scoring for a translation model (M2M100 architecture, tiny random config).

For each source sentence the caller supplies a preferred and a dispreferred translation. The
policy's sequence log-probabilities of both are compared with those of a frozen reference
model; the output is the DPO implicit reward margin
    beta * [(log pi(y_w|x) - log ref(y_w|x)) - (log pi(y_l|x) - log ref(y_l|x))].
"""
import copy

import torch
import torch.nn as nn
from transformers import M2M100Config, M2M100ForConditionalGeneration


def shift_right(ids, start_id, pad_id):
    out = ids.new_full(ids.shape, pad_id)
    out[:, 1:] = ids[:, :-1]
    out[:, 0] = start_id
    return out


class DPOTranslationScorer(nn.Module):
    def __init__(self, config, beta=0.1):
        super().__init__()
        self.policy = M2M100ForConditionalGeneration(config)
        self.reference = copy.deepcopy(self.policy)
        with torch.no_grad():  # the policy has drifted from the reference during training
            for p in self.policy.parameters():
                p.add_(0.02 * torch.randn_like(p))
        for p in self.reference.parameters():
            p.requires_grad_(False)
        self.beta = beta
        self.start_id, self.pad_id = config.decoder_start_token_id, config.pad_token_id

    def sequence_logprob(self, model, input_ids, attention_mask, labels, label_mask):
        dec_in = shift_right(labels, self.start_id, self.pad_id)
        dec_mask = shift_right(label_mask, 1, 0)
        logits = model(input_ids=input_ids, attention_mask=attention_mask, decoder_input_ids=dec_in,
                       decoder_attention_mask=dec_mask).logits
        logp = logits.log_softmax(-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)
        return (logp * label_mask).sum(-1)

    def forward(self, input_ids, attention_mask, chosen, chosen_mask, rejected, rejected_mask):
        pi_w = self.sequence_logprob(self.policy, input_ids, attention_mask, chosen, chosen_mask)
        pi_l = self.sequence_logprob(self.policy, input_ids, attention_mask, rejected, rejected_mask)
        ref_w = self.sequence_logprob(self.reference, input_ids, attention_mask, chosen, chosen_mask)
        ref_l = self.sequence_logprob(self.reference, input_ids, attention_mask, rejected, rejected_mask)
        return self.beta * ((pi_w - ref_w) - (pi_l - ref_l))


def padded(B, T, lengths, low=4, high=96, pad=1):
    ids = torch.randint(low, high, (B, T))
    mask = torch.zeros(B, T, dtype=torch.long)
    for b, n in enumerate(lengths):
        ids[b, n - 1] = 2
        ids[b, n:] = pad
        mask[b, :n] = 1
    return ids, mask


def build():
    torch.manual_seed(0)
    config = M2M100Config(vocab_size=96, d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=4,
                          decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64,
                          pad_token_id=1, eos_token_id=2, decoder_start_token_id=2, dropout=0.1)
    model = DPOTranslationScorer(config).eval()
    src, src_mask = padded(3, 10, [10, 7, 4])
    chosen, chosen_mask = padded(3, 9, [9, 5, 6])
    rejected, rejected_mask = padded(3, 9, [7, 9, 3])
    return model, (src, src_mask, chosen, chosen_mask, rejected, rejected_mask)
