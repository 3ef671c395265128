"""EEND-EDA end-to-end neural speaker diarization (Horiguchi et al., 2020/2022).

A Transformer encoder (no positional encoding, as in EEND) turns log-mel frames into embeddings.
Encoder-decoder attractors: an LSTM reads the frame embeddings of the recording (packed by the
true lengths; frames shuffled during training only, as in the paper) and its final state seeds
an LSTM decoder fed with zeros, which emits one attractor per potential speaker plus an
existence probability. Speech activity of speaker s at frame t is sigmoid(e_t . a_s).
"""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class EENDEDA(nn.Module):
    def __init__(self, n_feats=23, dim=32, heads=4, depth=2, max_speakers=3):
        super().__init__()
        self.max_speakers = max_speakers
        self.proj = nn.Linear(n_feats, dim)
        self.in_norm = nn.LayerNorm(dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.out_norm = nn.LayerNorm(dim)
        self.eda_encoder = nn.LSTM(dim, dim, batch_first=True)
        self.eda_decoder = nn.LSTM(dim, dim, batch_first=True)
        self.exist = nn.Linear(dim, 1)

    def attractors(self, emb, lengths):
        if self.training:
            order = [torch.randperm(int(n), device=emb.device) for n in lengths]
            emb = torch.stack([torch.cat([e[o], e[len(o):]]) for e, o in zip(emb, order)])
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, state = self.eda_encoder(packed)
        zeros = emb.new_zeros(emb.size(0), self.max_speakers + 1, emb.size(-1))
        att, _ = self.eda_decoder(zeros, state)
        return att

    def forward(self, feats, lengths):
        B, T, _ = feats.shape
        pad = torch.arange(T, device=feats.device)[None, :] >= lengths[:, None]
        emb = self.out_norm(self.encoder(self.in_norm(self.proj(feats)), src_key_padding_mask=pad))
        att = self.attractors(emb, lengths)
        exist = torch.sigmoid(self.exist(att)).squeeze(-1)
        activity = torch.sigmoid(emb @ att[:, : self.max_speakers].transpose(1, 2))
        return activity, exist


def build():
    torch.manual_seed(0)
    model = EENDEDA().eval()
    feats = torch.randn(3, 24, 23)
    lengths = torch.tensor([24, 17, 10])
    feats[1, 17:] = 0.0
    feats[2, 10:] = 0.0
    return model, (feats, lengths)
