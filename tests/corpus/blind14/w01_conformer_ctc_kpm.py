"""Conformer-style CTC acoustic encoder (macaron feed-forward, MHSA) over padded filterbank batches."""
import torch
import torch.nn as nn


class FeedForward(nn.Module):
    def __init__(self, d, mult=4, p=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(d), nn.Linear(d, mult * d), nn.SiLU(), nn.Dropout(p), nn.Linear(mult * d, d), nn.Dropout(p)
        )

    def forward(self, x):
        return self.net(x)


class ConformerLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ff1 = FeedForward(d)
        self.attn_norm = nn.LayerNorm(d)
        self.mhsa = nn.MultiheadAttention(d, heads, dropout=0.1, batch_first=True)
        self.ff2 = FeedForward(d)
        self.out_norm = nn.LayerNorm(d)

    def forward(self, x, mask):
        x = x + 0.5 * self.ff1(x)
        h = self.attn_norm(x)
        h, _ = self.mhsa(h, h, h, key_padding_mask=mask, need_weights=False)
        x = x + h
        x = x + 0.5 * self.ff2(x)
        return self.out_norm(x)


class CTCEncoder(nn.Module):
    def __init__(self, n_mels=20, d_model=32, heads=4, layers=2, vocab=29):
        super().__init__()
        self.input_proj = nn.Sequential(nn.Linear(n_mels, d_model), nn.Dropout(0.1))
        self.layers = nn.ModuleList(ConformerLayer(d_model, heads) for _ in range(layers))
        self.ctc_head = nn.Linear(d_model, vocab)

    def forward(self, feats, feat_lens):
        T = feats.size(1)
        mask = torch.arange(T, device=feats.device)[None, :] < feat_lens[:, None]
        x = self.input_proj(feats)
        for layer in self.layers:
            x = layer(x, mask)
        return self.ctc_head(x).log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = CTCEncoder().eval()
    feat_lens = torch.tensor([13, 9, 6])
    feats = torch.randn(3, 16, 20)  # bucketed to 16 frames
    feats = feats * (torch.arange(16)[None, :, None] < feat_lens[:, None, None])
    return model, (feats, feat_lens)
