import torch
import torch.nn as nn
import torch.nn.functional as F


def create_sinusoidal_positions(num_pos, dim):
    inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2, dtype=torch.int64) / dim))
    sinusoid_inp = torch.einsum("i , j -> i j", torch.arange(num_pos, dtype=torch.int64).float(), inv_freq).float()
    return torch.cat((torch.sin(sinusoid_inp), torch.cos(sinusoid_inp)), dim=1)


def rotate_every_two(x):
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)


def apply_rotary_pos_emb(tensor, sin, cos):
    sin = torch.cat((sin, sin), dim=-1)[:, :, None, :]
    cos = torch.cat((cos, cos), dim=-1)[:, :, None, :]
    return (tensor * cos) + (rotate_every_two(tensor) * sin)


class GPTJAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, max_positions):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_attention_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale_attn = torch.sqrt(torch.tensor(self.head_dim, dtype=torch.float32))
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.rotary_dim = self.head_dim
        self.register_buffer("embed_positions", create_sinusoidal_positions(max_positions, self.rotary_dim), persistent=False)
        self.register_buffer(
            "bias", torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool)).view(1, 1, max_positions, max_positions),
            persistent=False,
        )

    def _split_heads(self, tensor, rotary):
        new_shape = tensor.size()[:-1] + (self.num_attention_heads, self.head_dim)
        tensor = tensor.view(new_shape)
        if rotary:
            return tensor
        return tensor.permute(0, 2, 1, 3)

    def forward(self, hidden_states, position_ids):
        query = self._split_heads(self.q_proj(hidden_states), True)
        key = self._split_heads(self.k_proj(hidden_states), True)
        value = self._split_heads(self.v_proj(hidden_states), False)
        sincos = self.embed_positions[position_ids]
        sin, cos = torch.split(sincos, sincos.shape[-1] // 2, dim=-1)
        key = apply_rotary_pos_emb(key, sin, cos)
        query = apply_rotary_pos_emb(query, sin, cos)
        key = key.permute(0, 2, 1, 3)
        query = query.permute(0, 2, 1, 3)
        query_length, key_length = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        mask_value = torch.finfo(attn_weights.dtype).min
        attn_weights = torch.where(causal_mask, attn_weights, torch.tensor(mask_value, dtype=attn_weights.dtype))
        attn_weights = attn_weights / self.scale_attn
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_output = torch.matmul(attn_weights, value)
        attn_output = attn_output.permute(0, 2, 1, 3).contiguous()
        attn_output = attn_output.view(attn_output.size()[:-2] + (self.embed_dim,))
        return self.out_proj(attn_output)


class GPTJBlock(nn.Module):
    def __init__(self, embed_dim, num_heads, max_positions):
        super().__init__()
        self.ln_1 = nn.LayerNorm(embed_dim)
        self.attn = GPTJAttention(embed_dim, num_heads, max_positions)
        self.fc_in = nn.Linear(embed_dim, 4 * embed_dim)
        self.fc_out = nn.Linear(4 * embed_dim, embed_dim)

    def forward(self, hidden_states, position_ids):
        residual = hidden_states
        hidden_states = self.ln_1(hidden_states)
        attn_output = self.attn(hidden_states, position_ids)
        feed_forward_hidden_states = self.fc_out(F.gelu(self.fc_in(hidden_states), approximate="tanh"))
        return attn_output + feed_forward_hidden_states + residual


class GPTJForCausalLM(nn.Module):
    def __init__(self, vocab_size=64, embed_dim=32, num_heads=4, n_layer=2, max_positions=64):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, embed_dim)
        self.h = nn.ModuleList([GPTJBlock(embed_dim, num_heads, max_positions) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(embed_dim)
        self.lm_head = nn.Linear(embed_dim, vocab_size)

    def forward(self, input_ids, position_ids=None):
        if position_ids is None:
            position_ids = torch.arange(input_ids.shape[-1], dtype=torch.long).unsqueeze(0)
        hidden_states = self.wte(input_ids)
        for block in self.h:
            hidden_states = block(hidden_states, position_ids)
        return self.lm_head(self.ln_f(hidden_states))


def build():
    torch.manual_seed(0)
    model = GPTJForCausalLM().eval()
    input_ids = torch.randint(0, 64, (2, 10))
    return model, (input_ids,)
