import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, bias):
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        x = x + self.c_proj(y.transpose(1, 2).reshape(B, T, C))
        return x + self.mlp(self.ln2(x))


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim=6, act_dim=3, hidden=32, n_layer=2, n_head=2, max_ep_len=100):
        super().__init__()
        self.hidden = hidden
        self.embed_timestep = nn.Embedding(max_ep_len, hidden)
        self.embed_return = nn.Linear(1, hidden)
        self.embed_state = nn.Linear(state_dim, hidden)
        self.embed_action = nn.Linear(act_dim, hidden)
        self.embed_ln = nn.LayerNorm(hidden)
        self.blocks = nn.ModuleList(Block(hidden, n_head) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(hidden)
        self.predict_action = nn.Sequential(nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, states, actions, returns_to_go, timesteps, attention_mask):
        B, K = states.shape[:2]
        t_emb = self.embed_timestep(timesteps)
        r = self.embed_return(returns_to_go) + t_emb
        s = self.embed_state(states) + t_emb
        a = self.embed_action(actions) + t_emb
        # (R_1, s_1, a_1, R_2, s_2, a_2, ...)
        h = torch.stack((r, s, a), dim=2).reshape(B, 3 * K, self.hidden)
        h = self.embed_ln(h)
        keep = attention_mask.repeat_interleave(3, dim=1).bool()
        causal = torch.ones(3 * K, 3 * K, dtype=torch.bool).tril()
        bias = torch.zeros(B, 1, 3 * K, 3 * K)
        bias = bias.masked_fill(~keep[:, None, None, :], -1e4)
        bias = bias.masked_fill(~causal, torch.finfo(bias.dtype).min)
        for blk in self.blocks:
            h = blk(h, bias)
        h = self.ln_f(h).reshape(B, K, 3, self.hidden)
        return self.predict_action(h[:, :, 1])  # predict a_t from the s_t token


def build():
    torch.manual_seed(0)
    model = DecisionTransformer().eval()
    B, K = 2, 8
    lengths = [8, 5]
    states = torch.randn(B, K, 6)
    actions = torch.randn(B, K, 3).clamp(-1, 1)
    rtg = torch.linspace(10, 2, K).repeat(B, 1).unsqueeze(-1)
    timesteps = torch.arange(K).repeat(B, 1)
    mask = torch.zeros(B, K, dtype=torch.long)
    for i, n in enumerate(lengths):  # left padding, like the DT evaluation loop
        mask[i, K - n:] = 1
        timesteps[i, K - n:] = torch.arange(20, 20 + n)
        timesteps[i, : K - n] = 0
        states[i, : K - n] = 0
        actions[i, : K - n] = -10.0
        rtg[i, : K - n] = 0
    return model, (states, actions, rtg, timesteps, mask)
