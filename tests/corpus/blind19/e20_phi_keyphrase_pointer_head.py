"""Keyphrase extraction head on a small Phi decoder: a set of learned keyphrase-slot queries
cross-attends over the decoder's hidden states (Set-prediction style), and each slot predicts a
start position by attention over the tokens."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import PhiConfig, PhiModel


class SlotAttentionHead(nn.Module):
    def __init__(self, hidden, n_slots=4, d_head=16):
        super().__init__()
        self.slots = nn.Parameter(torch.randn(n_slots, hidden) * 0.5)
        self.q = nn.Linear(hidden, d_head)
        self.k = nn.Linear(hidden, d_head)
        self.v = nn.Linear(hidden, hidden)
        self.hidden = hidden

    def forward(self, h, attention_mask):
        q = self.q(self.slots)[None]                         # (1, S, d_head)
        k = self.k(h)                                        # (B, T, d_head)
        scores = torch.matmul(q, k.transpose(1, 2)) / math.sqrt(self.hidden)
        scores = scores.masked_fill(attention_mask[:, None, :] == 0, float("-inf"))
        probs = scores.softmax(-1)
        return torch.matmul(probs, self.v(h)), probs


class PhiKeyphraseExtractor(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.backbone = PhiModel(config)
        self.head = SlotAttentionHead(config.hidden_size)
        self.start = nn.Linear(config.hidden_size, 1)

    def forward(self, input_ids, attention_mask):
        h = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        slot_repr, probs = self.head(h, attention_mask)
        return slot_repr


def build():
    torch.manual_seed(0)
    cfg = PhiConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                    num_attention_heads=4, max_position_embeddings=64, pad_token_id=0,
                    resid_pdrop=0.0, embd_pdrop=0.0, attention_dropout=0.0)
    model = PhiKeyphraseExtractor(cfg).eval()
    ids = torch.randint(1, 128, (2, 14))
    mask = torch.ones(2, 14, dtype=torch.long)
    return model, (ids, mask)
