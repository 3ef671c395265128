"""RNN-Transducer with a self-attention audio encoder.

Encoder: subsampled features + Transformer encoder layers with a key padding mask from the
frame lengths. Prediction network: an LSTM over the blank-prefixed label sequence (causal by
construction). Joint: every (frame t, label prefix u) pair is combined by broadcasting,
enc[:, :, None] + pred[:, None], giving the (B, T, U + 1, V) lattice of logits.
"""
import torch
import torch.nn as nn


class RNNT(nn.Module):
    def __init__(self, n_mels=16, d=32, vocab=20, blank=0):
        super().__init__()
        self.blank = blank
        self.subsample = nn.Conv1d(n_mels, d, kernel_size=2, stride=2)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, 4, 64, dropout=0.0, batch_first=True, norm_first=True),
            num_layers=2, enable_nested_tensor=False)
        self.embed = nn.Embedding(vocab, d)
        self.pred = nn.LSTM(d, d, batch_first=True)
        self.enc_proj = nn.Linear(d, d)
        self.pred_proj = nn.Linear(d, d)
        self.joint_out = nn.Linear(d, vocab)

    def forward(self, mels, mel_lengths, labels):
        B, T_in, _ = mels.shape
        x = self.subsample(mels.transpose(1, 2)).transpose(1, 2)            # (B, T, d), T = T_in // 2
        T = x.size(1)
        frame_lengths = mel_lengths // 2
        pad = torch.arange(T, device=mels.device)[None, :] >= frame_lengths[:, None]
        enc = self.encoder(x, src_key_padding_mask=pad)
        blank = torch.full((B, 1), self.blank, dtype=labels.dtype, device=labels.device)
        pred, _ = self.pred(self.embed(torch.cat([blank, labels], dim=1)))   # (B, U + 1, d)
        joint = torch.tanh(self.enc_proj(enc)[:, :, None] + self.pred_proj(pred)[:, None])
        return self.joint_out(joint).log_softmax(-1)                          # (B, T, U + 1, V)


def build():
    torch.manual_seed(0)
    model = RNNT().eval()
    mels = torch.randn(2, 14, 16)
    mel_lengths = torch.tensor([14, 10])
    labels = torch.randint(1, 20, (2, 5))
    labels[1, 3:] = 0
    return model, (mels, mel_lengths, labels)
