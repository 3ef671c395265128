import torch
import torch.nn as nn
import torch.nn.functional as F


class TrajectoryGPT(nn.Module):
    """Decision-transformer policy: tokens are (return, state, action) per timestep."""

    def __init__(self, state_dim=6, act_dim=3, d=32, heads=4, layers=2, max_timestep=100, context=8):
        super().__init__()
        self.d, self.heads, self.context = d, heads, context
        self.ret_emb = nn.Sequential(nn.Linear(1, d), nn.Tanh())
        self.state_emb = nn.Sequential(nn.Linear(state_dim, d), nn.Tanh())
        self.act_emb = nn.Sequential(nn.Linear(act_dim, d), nn.Tanh())
        self.global_pos = nn.Parameter(torch.randn(1, max_timestep, d) * 0.02)
        self.local_pos = nn.Parameter(torch.randn(1, 3 * context, d) * 0.02)
        self.attn = nn.ModuleList(nn.MultiheadAttention(d, heads, batch_first=True) for _ in range(layers))
        self.mlp = nn.ModuleList(
            nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, act_dim)
        step_mask = torch.tril(torch.ones(context, context))
        step_mask = step_mask.repeat_interleave(3, 0).repeat_interleave(3, 1)
        self.register_buffer("step_mask", step_mask)

    def forward(self, rtg, states, actions, timesteps, attention_mask):
        B, K, _ = states.shape
        toks = torch.stack([self.ret_emb(rtg), self.state_emb(states), self.act_emb(actions)], dim=2)
        toks = toks.reshape(B, 3 * K, self.d)
        pos = torch.gather(self.global_pos.expand(B, -1, -1), 1,
                           timesteps.repeat_interleave(3, 1)[..., None].expand(-1, -1, self.d))
        x = toks + pos + self.local_pos[:, : 3 * K]
        keep = self.step_mask[: 3 * K, : 3 * K][None] * attention_mask.repeat_interleave(3, 1)[:, None, :].float()
        bias = (1.0 - keep) * -1e4
        bias = bias.repeat_interleave(self.heads, dim=0)
        for attn, mlp, ln1, ln2 in zip(self.attn, self.mlp, self.ln1, self.ln2):
            h = ln1(x)
            x = x + attn(h, h, h, attn_mask=bias, need_weights=False)[0]
            x = x + mlp(ln2(x))
        x = self.ln_f(x)
        return self.head(x[:, 1::3])


def build():
    torch.manual_seed(0)
    model = TrajectoryGPT().eval()
    B, K = 2, 8
    states = torch.randn(B, K, 6)
    actions = torch.randn(B, K, 3).clamp(-1, 1)
    rtg = torch.linspace(5, 1, K).repeat(B, 1).unsqueeze(-1)
    timesteps = torch.arange(K).repeat(B, 1) + torch.tensor([[0], [30]])
    mask = torch.ones(B, K, dtype=torch.long)
    mask[1, :3] = 0  # left padded short trajectory
    states[1, :3] = 0
    actions[1, :3] = 0
    return model, (rtg, states, actions, timesteps, mask)
