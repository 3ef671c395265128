"""Decision Transformer (Chen et al. 2021) for offline RL on a small continuous-control task.

Each timestep contributes three tokens (return-to-go, state, action) that share a learned
timestep embedding; a causal GPT runs over the interleaved sequence and the action is predicted
from the state token.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, n_head, max_tokens):
        super().__init__()
        self.n_head = n_head
        self.key, self.query, self.value = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("bias", torch.tril(torch.ones(max_tokens, max_tokens)).view(1, 1, max_tokens, max_tokens))

    def forward(self, x):
        B, T, C = x.size()
        k = self.key(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = self.query(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.reshape(B, T, C)
        return self.proj(y)


class GPTBlock(nn.Module):
    def __init__(self, dim, n_head, max_tokens):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, n_head, max_tokens)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim=6, act_dim=3, dim=32, n_head=4, n_layer=2, max_ep_len=100, context=8):
        super().__init__()
        self.embed_timestep = nn.Embedding(max_ep_len, dim)
        self.embed_return = nn.Linear(1, dim)
        self.embed_state = nn.Linear(state_dim, dim)
        self.embed_action = nn.Linear(act_dim, dim)
        self.embed_ln = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList([GPTBlock(dim, n_head, 3 * context) for _ in range(n_layer)])
        self.predict_action = nn.Sequential(nn.Linear(dim, act_dim), nn.Tanh())

    def forward(self, states, actions, returns_to_go, timesteps):
        B, K, _ = states.shape
        t_emb = self.embed_timestep(timesteps)
        r = self.embed_return(returns_to_go) + t_emb
        s = self.embed_state(states) + t_emb
        a = self.embed_action(actions) + t_emb
        x = torch.stack((r, s, a), dim=2).reshape(B, 3 * K, -1)
        x = self.embed_ln(x)
        for blk in self.blocks:
            x = blk(x)
        x = x.reshape(B, K, 3, -1)
        return self.predict_action(x[:, :, 1])


def build():
    torch.manual_seed(0)
    model = DecisionTransformer().eval()
    B, K = 3, 8
    states = torch.randn(B, K, 6)
    actions = torch.tanh(torch.randn(B, K, 3))
    returns_to_go = torch.linspace(10.0, 2.0, K).expand(B, K).unsqueeze(-1).clone()
    timesteps = torch.arange(K).expand(B, K) + torch.tensor([0, 20, 50])[:, None]
    return model, (states, actions, returns_to_go, timesteps)
