"""wav2vec2-style encoder (layer-norm feature extractor): conv downsampling of raw audio, frame-level
attention mask derived from the conv output lengths, masked mean pooling for utterance classification."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CONV = [(16, 5, 3), (16, 3, 2), (16, 2, 2)]  # (channels, kernel, stride)


def feat_extract_output_lengths(lengths):
    for _, kernel, stride in CONV:
        lengths = torch.div(lengths - kernel, stride, rounding_mode="floor") + 1
    return lengths


class ConvLayerNormBlock(nn.Module):
    def __init__(self, cin, cout, kernel, stride):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, kernel, stride=stride)
        self.layer_norm = nn.LayerNorm(cout)

    def forward(self, x):
        x = self.conv(x)
        return F.gelu(self.layer_norm(x.transpose(-2, -1)).transpose(-2, -1))


class Wav2Vec2Classifier(nn.Module):
    def __init__(self, dim=32, heads=4, layers=2, classes=4):
        super().__init__()
        cins = [1] + [c for c, _, _ in CONV[:-1]]
        self.feature_extractor = nn.Sequential(*[ConvLayerNormBlock(ci, c, k, s) for ci, (c, k, s) in zip(cins, CONV)])
        self.feature_projection = nn.Sequential(nn.LayerNorm(CONV[-1][0]), nn.Linear(CONV[-1][0], dim))
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.classifier = nn.Linear(dim, classes)

    def forward(self, input_values, attention_mask):
        feats = self.feature_extractor(input_values[:, None]).transpose(1, 2)
        hidden = self.feature_projection(feats)
        frame_lengths = feat_extract_output_lengths(attention_mask.sum(-1))
        frame_mask = torch.arange(hidden.size(1))[None] < frame_lengths[:, None]
        hidden = self.encoder(hidden, src_key_padding_mask=~frame_mask)
        m = frame_mask[..., None].to(hidden.dtype)
        return self.classifier((hidden * m).sum(1) / m.sum(1))


def build():
    torch.manual_seed(0)
    lens = torch.tensor([96, 70, 41])
    attention_mask = (torch.arange(96)[None] < lens[:, None]).long()
    input_values = torch.randn(3, 96) * attention_mask
    return Wav2Vec2Classifier().eval(), (input_values, attention_mask)
