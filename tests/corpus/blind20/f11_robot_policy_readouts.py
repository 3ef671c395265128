"""Octo-style generalist robot policy backbone with readout tokens (Octo Model Team, 2024).

Token sequence: task tokens (language), then for every history step its observation tokens
followed by readout tokens. Who may read whom is a small table over token groups: task tokens
read only task tokens; observation tokens read the task and observations of the same or earlier
steps; readouts read all of that plus the readouts of their own step. Nothing reads a readout
except a readout, so adding or removing readouts never changes the observation embeddings.
History steps before the start of the episode are padded (timestep_pad_mask == 0).
"""
import torch
import torch.nn as nn

TASK, OBS, READOUT = 0, 1, 2
CAN_READ = torch.tensor([[1, 0, 0], [1, 1, 0], [1, 1, 1]], dtype=torch.bool)  # [reader group, read group]


def attention_rules(group, step):
    reads = CAN_READ.to(group.device)[group[:, None], group[None, :]]
    not_future = step[None, :] <= step[:, None]
    readout_pair = (group[:, None] == READOUT) & (group[None, :] == READOUT)
    same_step = step[:, None] == step[None, :]
    return reads & not_future & (~readout_pair | same_step)


class OctoBackbone(nn.Module):
    def __init__(self, lang_dim=24, obs_dim=40, dim=48, heads=4, depth=2, k_obs=3, n_readouts=2,
                 max_steps=8, act_dim=7):
        super().__init__()
        self.k_obs, self.n_readouts = k_obs, n_readouts
        self.task_proj = nn.Linear(lang_dim, dim)
        self.obs_proj = nn.Linear(obs_dim, dim)
        self.obs_pos = nn.Parameter(torch.randn(max_steps, k_obs, dim) * 0.02)
        self.readouts = nn.Parameter(torch.randn(max_steps, n_readouts, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.transformer = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.action_head = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, act_dim))

    def forward(self, task_tokens, obs, timestep_pad_mask):
        B, L, K, _ = obs.shape
        R, n_task = self.n_readouts, task_tokens.size(1)
        o = self.obs_proj(obs) + self.obs_pos[:L]
        r = self.readouts[:L].expand(B, -1, -1, -1)
        steps = torch.cat([o, r], dim=2)
        x = torch.cat([self.task_proj(task_tokens), steps.flatten(1, 2)], dim=1)
        dev = x.device
        group = torch.tensor([TASK] * n_task + ([OBS] * K + [READOUT] * R) * L, device=dev)
        step = torch.cat([torch.full((n_task,), -1, device=dev), torch.arange(L, device=dev).repeat_interleave(K + R)])
        allowed = attention_rules(group, step)
        key_ok = torch.cat([timestep_pad_mask.new_ones(B, n_task),
                            timestep_pad_mask.repeat_interleave(K + R, dim=1)], dim=1).bool()
        allowed = allowed[None] & (key_ok[:, None, :] | (group == TASK)[None, None, :])
        blocked = (~allowed).repeat_interleave(self.transformer.layers[0].self_attn.num_heads, dim=0)
        h = self.transformer(x, mask=blocked)
        tokens = h[:, n_task:].view(B, L, K + R, -1)
        actions = self.action_head(tokens[:, :, K:].mean(dim=2))
        return actions, tokens


def build():
    torch.manual_seed(0)
    model = OctoBackbone().eval()
    task_tokens = torch.randn(2, 4, 24)
    obs = torch.randn(2, 4, 3, 40)
    timestep_pad_mask = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1]])
    return model, (task_tokens, obs, timestep_pad_mask)
