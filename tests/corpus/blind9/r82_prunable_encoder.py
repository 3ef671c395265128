import math

import torch
import torch.nn as nn


class Config:
    vocab_size = 50
    hidden_size = 32
    num_attention_heads = 4
    num_hidden_layers = 2
    intermediate_size = 64
    max_position_embeddings = 32
    attention_probs_dropout_prob = 0.1


class Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.n = config.num_attention_heads
        self.d = config.hidden_size // config.num_attention_heads
        self.query = nn.Linear(config.hidden_size, config.hidden_size)
        self.key = nn.Linear(config.hidden_size, config.hidden_size)
        self.value = nn.Linear(config.hidden_size, config.hidden_size)
        self.output = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)

    def shape(self, x):
        return x.view(x.size(0), -1, self.n, self.d).transpose(1, 2)

    def forward(self, hidden_states, attention_mask, head_mask=None):
        q = self.shape(self.query(hidden_states))
        k = self.shape(self.key(hidden_states))
        v = self.shape(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d)
        scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        probs = self.dropout(probs)
        if head_mask is not None:
            probs = probs * head_mask
        context = torch.matmul(probs, v)
        context = context.transpose(1, 2).contiguous().view(hidden_states.size(0), -1, self.n * self.d)
        return self.output(context)


class Layer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = Attention(config)
        self.norm1 = nn.LayerNorm(config.hidden_size)
        self.ffn = nn.Sequential(nn.Linear(config.hidden_size, config.intermediate_size), nn.GELU(),
                                 nn.Linear(config.intermediate_size, config.hidden_size))
        self.norm2 = nn.LayerNorm(config.hidden_size)

    def forward(self, x, attention_mask, head_mask=None):
        x = self.norm1(x + self.attention(x, attention_mask, head_mask))
        return self.norm2(x + self.ffn(x))


class PrunableEncoder(nn.Module):
    def __init__(self, config=Config()):
        super().__init__()
        self.config = config
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.positions = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.layers = nn.ModuleList([Layer(config) for _ in range(config.num_hidden_layers)])

    def get_head_mask(self, head_mask):
        if head_mask is None:
            return [None] * self.config.num_hidden_layers
        if head_mask.dim() == 1:
            head_mask = head_mask.unsqueeze(0).expand(self.config.num_hidden_layers, -1)
        return head_mask[:, None, :, None, None].to(torch.float32)

    def forward(self, input_ids, attention_mask, head_mask=None):
        ext = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        head_mask = self.get_head_mask(head_mask)
        x = self.embeddings(input_ids) + self.positions(torch.arange(input_ids.size(1)))[None]
        for i, layer in enumerate(self.layers):
            x = layer(x, ext, head_mask[i])
        return x


def build():
    torch.manual_seed(0)
    model = PrunableEncoder().eval()
    input_ids = torch.randint(1, 50, (2, 9))
    attention_mask = torch.ones(2, 9, dtype=torch.long)
    attention_mask[1, 5:] = 0
    input_ids = input_ids * attention_mask
    head_mask = torch.tensor([[1.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 1.0]])
    return model, (input_ids, attention_mask), {"head_mask": head_mask}
