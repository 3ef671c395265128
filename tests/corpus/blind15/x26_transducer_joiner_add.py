"""RNN-Transducer (Graves, 2012) with a Transformer audio encoder, an LSTM prediction
network over the label prefix (blank prepended) and an additive joiner.
"""
import torch
import torch.nn as nn


class AudioEncoder(nn.Module):
    def __init__(self, n_mels, d, heads=4, layers=2):
        super().__init__()
        self.proj = nn.Linear(n_mels, d)
        self.pos = nn.Parameter(torch.randn(1, 64, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, feats, feat_lens):
        T = feats.size(1)
        pad = torch.arange(T, device=feats.device)[None, :] >= feat_lens[:, None]
        return self.layers(self.proj(feats) + self.pos[:, :T], src_key_padding_mask=pad)


class Predictor(nn.Module):
    def __init__(self, vocab, d, blank=0):
        super().__init__()
        self.blank = blank
        self.embed = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, d, batch_first=True)

    def forward(self, labels):
        start = labels.new_full((labels.size(0), 1), self.blank)
        out, _ = self.lstm(self.embed(torch.cat([start, labels], dim=1)))
        return out                                            # (B, U + 1, d)


class Joiner(nn.Module):
    def __init__(self, d, joint_dim, vocab):
        super().__init__()
        self.enc_proj = nn.Linear(d, joint_dim)
        self.pred_proj = nn.Linear(d, joint_dim, bias=False)
        self.out = nn.Linear(joint_dim, vocab)

    def forward(self, enc, pred):
        joint = torch.tanh(self.enc_proj(enc) + self.pred_proj(pred))
        return self.out(joint).log_softmax(dim=-1)


class Transducer(nn.Module):
    def __init__(self, n_mels=16, d=32, vocab=20, joint_dim=24):
        super().__init__()
        self.encoder = AudioEncoder(n_mels, d)
        self.predictor = Predictor(vocab, d)
        self.joiner = Joiner(d, joint_dim, vocab)

    def forward(self, feats, feat_lens, labels):
        enc = self.encoder(feats, feat_lens)
        pred = self.predictor(labels)
        return self.joiner(enc, pred)


def build():
    torch.manual_seed(0)
    model = Transducer().eval()
    feat_lens = torch.tensor([9, 7, 5])
    feats = torch.randn(3, 9, 16) * (torch.arange(9)[None, :, None] < feat_lens[:, None, None])
    label_lens = torch.tensor([8, 6, 3])
    labels = torch.randint(1, 20, (3, 8)) * (torch.arange(8)[None, :] < label_lens[:, None])
    return model, (feats, feat_lens, labels)
