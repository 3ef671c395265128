import torch
import torch.nn as nn


class ConvolutionModule(nn.Module):
    def __init__(self, channels=32, kernel_size=5):
        super().__init__()
        self.layer_norm = nn.LayerNorm(channels)
        self.pointwise_conv1 = nn.Conv1d(channels, 2 * channels, 1)
        self.glu = nn.GLU(dim=1)
        self.depthwise_conv = nn.Conv1d(channels, channels, kernel_size, padding=(kernel_size - 1) // 2, groups=channels)
        self.batch_norm = nn.BatchNorm1d(channels, track_running_stats=False)
        self.activation = nn.SiLU()
        self.pointwise_conv2 = nn.Conv1d(channels, channels, 1)

    def forward(self, x, pad_mask):
        x = self.layer_norm(x).masked_fill(pad_mask.unsqueeze(-1), 0.0)
        x = self.glu(self.pointwise_conv1(x.transpose(1, 2)))
        x = x.masked_fill(pad_mask.unsqueeze(1), 0.0)
        x = self.depthwise_conv(x)
        x = self.activation(self.batch_norm(x))
        return self.pointwise_conv2(x).transpose(1, 2)


class ConformerConvBlock(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
        self.mhsa_norm = nn.LayerNorm(d)
        self.mhsa = nn.MultiheadAttention(d, 4, batch_first=True)
        self.conv = ConvolutionModule(d)
        self.final_norm = nn.LayerNorm(d)

    def forward(self, x, lengths):
        T = x.shape[1]
        pad_mask = torch.arange(T, device=x.device)[None, :] >= lengths[:, None]
        x = x + 0.5 * self.ff(x)
        h = self.mhsa_norm(x)
        x = x + self.mhsa(h, h, h, key_padding_mask=pad_mask, need_weights=False)[0]
        x = x + self.conv(x, pad_mask)
        return self.final_norm(x)


def build():
    torch.manual_seed(0)
    model = ConformerConvBlock().eval()
    x = torch.randn(2, 10, 32)
    lengths = torch.tensor([10, 7])
    return model, (x, lengths)
