"""Token world model over discrete frame codes (IRIS-style tokenizer, MaskGIT-style decoding).

Each environment step contributes one block: the K observation codes of the frame followed by
the action token. All tokens of a block are predicted in parallel from the previous blocks, so
attention is block-causal: a token sees its own block and every earlier block, never a later one.
Heads predict the next frame's codes, the reward and the termination flag.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WorldModelConfig:
    tokens_per_obs = 4
    tokens_per_block = tokens_per_obs + 1
    max_blocks = 8
    obs_vocab = 64
    act_vocab = 6
    dim = 48
    heads = 4
    layers = 2


class BlockCausalWorldModel(nn.Module):
    def __init__(self, cfg=WorldModelConfig()):
        super().__init__()
        self.cfg = cfg
        self.obs_emb = nn.Embedding(cfg.obs_vocab, cfg.dim)
        self.act_emb = nn.Embedding(cfg.act_vocab, cfg.dim)
        self.pos_emb = nn.Embedding(cfg.max_blocks * cfg.tokens_per_block, cfg.dim)
        layer = nn.TransformerEncoderLayer(cfg.dim, cfg.heads, 4 * cfg.dim, dropout=0.1,
                                           batch_first=True, norm_first=True, activation="gelu")
        self.transformer = nn.TransformerEncoder(layer, cfg.layers, enable_nested_tensor=False)
        self.ln_f = nn.LayerNorm(cfg.dim)
        self.head_obs = nn.Linear(cfg.dim, cfg.obs_vocab)
        self.head_rew = nn.Linear(cfg.dim, 3)
        self.head_end = nn.Linear(cfg.dim, 2)

    def block_mask(self, T, device):
        block = torch.arange(T, device=device) // self.cfg.tokens_per_obs
        return block[None, :] > block[:, None]

    def forward(self, obs_tokens, actions):
        B, L, K = obs_tokens.shape
        x = torch.cat([self.obs_emb(obs_tokens), self.act_emb(actions).unsqueeze(2)], dim=2)
        x = x.flatten(1, 2)
        T = x.size(1)
        x = x + self.pos_emb(torch.arange(T, device=x.device))
        h = self.ln_f(self.transformer(x, mask=self.block_mask(T, x.device)))
        return self.head_obs(h), self.head_rew(h), self.head_end(h)


def build():
    torch.manual_seed(0)
    cfg = WorldModelConfig()
    model = BlockCausalWorldModel(cfg).eval()
    obs_tokens = torch.randint(0, cfg.obs_vocab, (2, 4, cfg.tokens_per_obs))
    actions = torch.randint(0, cfg.act_vocab, (2, 4))
    return model, (obs_tokens, actions)
