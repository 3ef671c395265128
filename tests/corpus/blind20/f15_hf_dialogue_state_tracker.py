"""Dialogue state tracking with slot queries over a Megatron-BERT dialogue encoder (transformers).

The dialogue history "[CLS] sys turn [SEP] usr turn [SEP] ..." is encoded once. Each
domain-slot pair (hotel-area, train-day, ...) owns a learned query that reads the token states
through one multi-head cross attention; a 3-way gate (none / dontcare / value) and a value
classifier over the slot's ontology are applied to the slot summaries. Batches are padded with
the tokenizer's pad id to a multiple of 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import MegatronBertConfig, MegatronBertModel


class SlotQueryDST(nn.Module):
    def __init__(self, config, n_slots=5, n_values=10, heads=4):
        super().__init__()
        self.pad_id, self.heads = config.pad_token_id, heads
        hidden = config.hidden_size
        self.encoder = MegatronBertModel(config, add_pooling_layer=False)
        self.slot_queries = nn.Parameter(torch.randn(n_slots, hidden) * 0.02)
        self.q_proj, self.kv_proj = nn.Linear(hidden, hidden), nn.Linear(hidden, 2 * hidden)
        self.o_proj = nn.Linear(hidden, hidden)
        self.norm = nn.LayerNorm(hidden)
        self.gate = nn.Linear(hidden, 3)
        self.value = nn.Linear(hidden, n_values)

    def forward(self, input_ids, token_type_ids):
        B, T = input_ids.shape
        pad = input_ids.eq(self.pad_id)
        states = self.encoder(input_ids=input_ids, attention_mask=(~pad).long(),
                              token_type_ids=token_type_ids).last_hidden_state
        H, S, D = self.heads, self.slot_queries.size(0), states.size(-1)
        q = self.q_proj(self.slot_queries).view(1, S, H, D // H).transpose(1, 2).expand(B, -1, -1, -1)
        k, v = self.kv_proj(states).view(B, T, 2, H, D // H).permute(2, 0, 3, 1, 4)
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=pad[:, None, None, :])
        slots = self.norm(self.slot_queries + self.o_proj(ctx.transpose(1, 2).reshape(B, S, D)))
        return self.value(slots), self.gate(slots)


def encode_dialogue(turns, width, cls_id=2, sep_id=3, pad_id=0):
    ids, types = [cls_id], [0]
    for i, turn in enumerate(turns):
        ids += turn + [sep_id]
        types += [i % 2] * (len(turn) + 1)
    return ids + [pad_id] * (width - len(ids)), types + [0] * (width - len(types))


def build():
    torch.manual_seed(0)
    config = MegatronBertConfig(vocab_size=300, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                intermediate_size=64, max_position_embeddings=64, pad_token_id=0)
    model = SlotQueryDST(config).eval()
    dialogues = [[5, 7, 6], [4, 9], [8, 3, 4, 2]]
    rows = [encode_dialogue([torch.randint(5, 300, (n,)).tolist() for n in d], 24) for d in dialogues]
    input_ids = torch.tensor([r[0] for r in rows])
    token_type_ids = torch.tensor([r[1] for r in rows])
    return model, (input_ids, token_type_ids)
