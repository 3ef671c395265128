import math

import torch
import torch.nn as nn


class UnilmConfig:
    vocab_size = 64
    hidden_size = 32
    num_attention_heads = 4
    num_hidden_layers = 2
    intermediate_size = 64
    max_position_embeddings = 32
    layer_norm_eps = 1e-12


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_heads = config.num_attention_heads
        self.head_size = config.hidden_size // config.num_attention_heads
        self.qkv = nn.Linear(config.hidden_size, 3 * config.hidden_size)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(self, hidden_states, attention_mask):
        b, t, _ = hidden_states.shape
        q, k, v = self.qkv(hidden_states).chunk(3, dim=-1)
        q = q.view(b, t, self.num_heads, self.head_size).permute(0, 2, 1, 3)
        k = k.view(b, t, self.num_heads, self.head_size).permute(0, 2, 1, 3)
        v = v.view(b, t, self.num_heads, self.head_size).permute(0, 2, 1, 3)
        scores = torch.matmul(q / math.sqrt(self.head_size), k.transpose(-1, -2))
        scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(b, t, -1)
        return self.dense(ctx)


class Layer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = SelfAttention(config)
        self.ln1 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.ffn = nn.Sequential(nn.Linear(config.hidden_size, config.intermediate_size), nn.GELU(),
                                 nn.Linear(config.intermediate_size, config.hidden_size))
        self.ln2 = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, x, attention_mask):
        x = self.ln1(x + self.attention(x, attention_mask))
        return self.ln2(x + self.ffn(x))


class PrefixLM(nn.Module):
    def __init__(self, config=UnilmConfig()):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.segment_embeddings = nn.Embedding(2, config.hidden_size)
        self.layers = nn.ModuleList([Layer(config) for _ in range(config.num_hidden_layers)])
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size)

    @staticmethod
    def build_seq2seq_mask(token_type_ids, attention_mask):
        seq_len = token_type_ids.size(1)
        idxs = torch.cumsum(token_type_ids, dim=1)
        causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.long))
        mask = (idxs[:, None, :] <= idxs[:, :, None]).long()
        mask = torch.where(token_type_ids[:, None, :].bool(), causal[None] * mask, mask)
        return mask * attention_mask[:, None, :]

    def get_extended_attention_mask(self, mask_3d, dtype):
        extended = mask_3d[:, None, :, :].to(dtype)
        return (1.0 - extended) * torch.finfo(dtype).min

    def forward(self, input_ids, token_type_ids, attention_mask):
        pos = torch.arange(input_ids.size(1))[None]
        x = self.word_embeddings(input_ids) + self.position_embeddings(pos) + self.segment_embeddings(token_type_ids)
        mask = self.build_seq2seq_mask(token_type_ids, attention_mask)
        ext = self.get_extended_attention_mask(mask, x.dtype)
        for layer in self.layers:
            x = layer(x, ext)
        return self.lm_head(x)


def build():
    torch.manual_seed(0)
    model = PrefixLM().eval()
    input_ids = torch.randint(1, 64, (2, 10))
    token_type_ids = torch.zeros(2, 10, dtype=torch.long)
    token_type_ids[0, 4:] = 1
    token_type_ids[1, 6:] = 1
    attention_mask = torch.ones(2, 10, dtype=torch.long)
    attention_mask[1, 9:] = 0
    input_ids = input_ids * attention_mask
    return model, (input_ids, token_type_ids, attention_mask)
