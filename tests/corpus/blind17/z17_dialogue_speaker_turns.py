"""Emotion recognition in conversation (ERC) with speaker and turn embeddings.

Each token carries the id of the speaker who said it and the index of its turn. A sinusoidal
position encoding (as in the PyTorch tutorial) is added on top; every token gets an emotion
label for its utterance.
"""
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=128):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(0)]


class ConversationEncoder(nn.Module):
    def __init__(self, vocab=400, d_model=48, nhead=4, layers=2, n_speakers=4, max_turns=16, n_emotions=7):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model, padding_idx=0)
        self.speaker = nn.Embedding(n_speakers, d_model)
        self.turn = nn.Embedding(max_turns, d_model)
        self.pos_enc = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 2 * d_model, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.classifier = nn.Linear(d_model, n_emotions)

    def forward(self, input_ids, speaker_ids, turn_ids):
        x = self.tok(input_ids) * math.sqrt(self.tok.embedding_dim)
        x = x + self.speaker(speaker_ids) + self.turn(turn_ids)
        x = self.pos_enc(x)
        h = self.encoder(x, src_key_padding_mask=input_ids.eq(0))
        return self.classifier(h)


def build():
    torch.manual_seed(0)
    B, T = 3, 18
    ids = torch.randint(1, 400, (B, T))
    turn = torch.arange(T).div(6, rounding_mode="floor").expand(B, T).clone()
    speaker = turn % 2
    ids[2, 12:] = 0
    model = ConversationEncoder().eval()
    return model, (ids, speaker, turn)
