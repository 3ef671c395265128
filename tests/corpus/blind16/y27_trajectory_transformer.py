"""Trajectory Transformer (Janner et al. 2021): offline-RL sequence model over discretised
state / action / reward dimensions.

Every transition is flattened into `transition_dim` discrete tokens; token ids are offset by the
dimension they come from so each dimension has its own sub-vocabulary. A causal GPT predicts the
next token.
"""
import torch
import torch.nn as nn


class TrajectoryGPT(nn.Module):
    def __init__(self, n_bins=20, transition_dim=5, dim=32, heads=4, layers=2, block_size=30):
        super().__init__()
        self.n_bins, self.transition_dim = n_bins, transition_dim
        self.tok_emb = nn.Embedding(n_bins * transition_dim + 1, dim)
        self.pos_emb = nn.Parameter(torch.randn(block_size, 1, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_bins * transition_dim + 1)

    def offset_tokens(self, idx):
        T = idx.size(1)
        dims = torch.arange(T, device=idx.device) % self.transition_dim
        return idx + dims * self.n_bins

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok_emb(self.offset_tokens(idx))
        x = x + self.pos_emb[: x.size(0)]
        mask = nn.Transformer.generate_square_subsequent_mask(T, device=idx.device)
        x = self.blocks(x, mask=mask, is_causal=True)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = TrajectoryGPT().eval()
    with torch.no_grad():
        model.pos_emb.normal_(std=0.5)
    idx = torch.randint(0, 20, (3, 25))
    return model, (idx,)
