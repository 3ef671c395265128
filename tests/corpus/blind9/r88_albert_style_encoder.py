import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AlbertConfig:
    vocab_size = 60
    embedding_size = 16
    hidden_size = 32
    num_attention_heads = 4
    num_hidden_layers = 3
    intermediate_size = 64
    max_position_embeddings = 32
    type_vocab_size = 2
    layer_norm_eps = 1e-12


class AlbertAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = config.hidden_size // config.num_attention_heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(*new_x_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        attention_scores = attention_scores + attention_mask
        attention_probs = F.softmax(attention_scores, dim=-1)
        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.transpose(2, 1).flatten(2)
        projected_context_layer = self.dense(context_layer)
        return self.LayerNorm(hidden_states + projected_context_layer)


class AlbertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = AlbertAttention(config)
        self.ffn = nn.Linear(config.hidden_size, config.intermediate_size)
        self.ffn_output = nn.Linear(config.intermediate_size, config.hidden_size)
        self.full_layer_layer_norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states, attention_mask):
        attention_output = self.attention(hidden_states, attention_mask)
        ffn_output = self.ffn_output(F.gelu(self.ffn(attention_output)))
        return self.full_layer_layer_norm(ffn_output + attention_output)


class AlbertModel(nn.Module):
    def __init__(self, config=AlbertConfig()):
        super().__init__()
        self.config = config
        self.word_embeddings = nn.Embedding(config.vocab_size, config.embedding_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.embedding_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.embedding_size)
        self.emb_norm = nn.LayerNorm(config.embedding_size, eps=config.layer_norm_eps)
        self.embedding_hidden_mapping_in = nn.Linear(config.embedding_size, config.hidden_size)
        self.shared_layer = AlbertLayer(config)
        self.pooler = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        pos = torch.arange(input_ids.size(1)).unsqueeze(0)
        emb = self.word_embeddings(input_ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        hidden_states = self.embedding_hidden_mapping_in(self.emb_norm(emb))
        extended_attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)
        extended_attention_mask = extended_attention_mask.to(dtype=hidden_states.dtype)
        extended_attention_mask = (1.0 - extended_attention_mask) * -10000.0
        for _ in range(self.config.num_hidden_layers):
            hidden_states = self.shared_layer(hidden_states, extended_attention_mask)
        pooled_output = torch.tanh(self.pooler(hidden_states[:, 0]))
        return hidden_states, pooled_output


def build():
    torch.manual_seed(0)
    model = AlbertModel().eval()
    input_ids = torch.randint(1, 60, (3, 8))
    attention_mask = torch.ones(3, 8, dtype=torch.long)
    attention_mask[1, 4:] = 0
    attention_mask[2, 6:] = 0
    input_ids = input_ids * attention_mask
    return model, (input_ids, attention_mask)
