import torch
import torch.nn as nn


class CTCEncoder(nn.Module):
    def __init__(self, n_mels=20, d=32, n_head=4, n_layers=2, vocab=12, max_len=64):
        super().__init__()
        self.inp = nn.Linear(n_mels, d)
        self.pos = nn.Parameter(torch.randn(1, max_len, d) * 0.02)
        self.layers = nn.ModuleList(
            [
                nn.TransformerEncoderLayer(d, n_head, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
                for _ in range(n_layers)
            ]
        )
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, feats, feat_lens):
        B, T, _ = feats.shape
        x = self.inp(feats) + self.pos[:, :T]
        valid = torch.arange(T, device=feats.device)[None, :] <= feat_lens[:, None]
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=~valid)
        return self.head(self.norm(x)).log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = CTCEncoder().eval()
    feats = torch.randn(2, 10, 20)
    feat_lens = torch.tensor([10, 6])
    return model, (feats, feat_lens)
