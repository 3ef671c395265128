"""Tacotron 2 style decoder with location-sensitive attention (Chorowski et al., 2015).

Teacher-forced: the previous ground-truth mel frame is fed at each step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class LocationSensitiveAttention(nn.Module):
    def __init__(self, query_dim, memory_dim, att_dim=16, n_filters=8, kernel=5):
        super().__init__()
        self.query_layer = nn.Linear(query_dim, att_dim, bias=False)
        self.memory_layer = nn.Linear(memory_dim, att_dim, bias=False)
        self.location_conv = nn.Conv1d(2, n_filters, kernel, padding=kernel // 2, bias=False)
        self.location_dense = nn.Linear(n_filters, att_dim, bias=False)
        self.v = nn.Linear(att_dim, 1, bias=False)

    def forward(self, query, memory, processed_memory, att_weights_cat, mask):
        loc = self.location_dense(self.location_conv(att_weights_cat).transpose(1, 2))
        energies = self.v(torch.tanh(self.query_layer(query).unsqueeze(1) + loc + processed_memory)).squeeze(-1)
        energies = energies.masked_fill(~mask, float("-inf"))
        alignment = F.softmax(energies, dim=1)
        context = torch.bmm(alignment.unsqueeze(1), memory).squeeze(1)
        return context, alignment


class Tacotron(nn.Module):
    def __init__(self, n_symbols=40, emb=32, n_mels=8, rnn=32):
        super().__init__()
        self.n_mels = n_mels
        self.embedding = nn.Embedding(n_symbols, emb, padding_idx=0)
        self.encoder = nn.LSTM(emb, emb // 2, batch_first=True, bidirectional=True)
        self.prenet = nn.Sequential(nn.Linear(n_mels, rnn), nn.ReLU(), nn.Linear(rnn, rnn), nn.ReLU())
        self.attention_rnn = nn.LSTMCell(rnn + emb, rnn)
        self.attention = LocationSensitiveAttention(rnn, emb)
        self.decoder_rnn = nn.LSTMCell(rnn + emb, rnn)
        self.proj = nn.Linear(rnn + emb, n_mels)

    def forward(self, text, text_lengths, mels):
        B, T = text.shape
        packed = pack_padded_sequence(self.embedding(text), text_lengths, batch_first=True, enforce_sorted=False)
        memory, _ = pad_packed_sequence(self.encoder(packed)[0], batch_first=True, total_length=T)
        processed_memory = self.attention.memory_layer(memory)
        mask = torch.arange(T, device=text.device)[None, :] < text_lengths[:, None]

        h_att = c_att = h_dec = c_dec = memory.new_zeros(B, self.attention_rnn.hidden_size)
        context = memory.new_zeros(B, memory.size(-1))
        align = cum_align = memory.new_zeros(B, T)
        prev = torch.cat([mels.new_zeros(B, 1, self.n_mels), mels[:, :-1]], dim=1)
        outputs = []
        for t in range(mels.size(1)):
            x = self.prenet(prev[:, t])
            h_att, c_att = self.attention_rnn(torch.cat([x, context], -1), (h_att, c_att))
            weights_cat = torch.stack([align, cum_align], dim=1)
            context, align = self.attention(h_att, memory, processed_memory, weights_cat, mask)
            cum_align = cum_align + align
            h_dec, c_dec = self.decoder_rnn(torch.cat([h_att, context], -1), (h_dec, c_dec))
            outputs.append(self.proj(torch.cat([h_dec, context], -1)))
        return torch.stack(outputs, dim=1)


def build():
    torch.manual_seed(0)
    model = Tacotron().eval()
    lengths = torch.tensor([11, 8, 5])
    text = torch.randint(1, 40, (3, 11))
    text = text.masked_fill(torch.arange(11)[None, :] >= lengths[:, None], 0)
    mels = torch.randn(3, 6, 8)
    return model, (text, lengths, mels)
