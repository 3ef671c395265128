"""Two sequence classifiers for exercise 8: a GRU and a small Transformer encoder.

Both read token ids (B, T) padded with `pad_id` at the end and return logits
(B, num_classes), so that everything except the sequence model itself can stay fixed.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .positional import SinusoidalPositionalEncoding
from .transformer import TransformerEncoder


class GRUClassifier(nn.Module):
    """Embedding -> single-layer GRU -> the hidden state at each sequence's last real token.

    Reading the state at the last real token (not at position T - 1) keeps trailing padding
    from changing the prediction. Every sequence needs at least one real token.
    """

    def __init__(self, vocab: int, d_model: int, num_classes: int, pad_id: int = 0) -> None:
        super().__init__()
        self.pad_id = pad_id
        self.embedding = nn.Embedding(vocab, d_model)
        self.gru = nn.GRU(d_model, d_model, num_layers=1, batch_first=True)
        self.head = nn.Linear(d_model, num_classes)

    def forward(self, tokens: Tensor) -> Tensor:
        """tokens (B, T) -> logits (B, num_classes)."""
        states, _ = self.gru(self.embedding(tokens))  # (B, T, d)
        last = (tokens != self.pad_id).sum(dim=1) - 1  # (B,) index of the last real token
        samples = torch.arange(tokens.size(0), device=tokens.device)
        return self.head(states[samples, last])  # states[b, last[b]]: (B, d)


class TransformerClassifier(nn.Module):
    """Embedding + sinusoidal positions -> encoder stack -> mean over the real tokens -> logits.

    The mean skips padded positions, which the key padding mask already hides from attention.
    """

    def __init__(
        self,
        vocab: int,
        d_model: int,
        num_heads: int,
        d_ff: int,
        num_layers: int,
        num_classes: int,
        max_len: int,
        pad_id: int = 0,
        dropout: float = 0.0,
        norm_first: bool = False,
    ) -> None:
        super().__init__()
        self.pad_id = pad_id
        self.embedding = nn.Embedding(vocab, d_model)
        self.positions = SinusoidalPositionalEncoding(max_len, d_model)
        self.encoder = TransformerEncoder(num_layers, d_model, num_heads, d_ff, dropout, norm_first)
        self.head = nn.Linear(d_model, num_classes)

    def forward(self, tokens: Tensor) -> Tensor:
        """tokens (B, T) -> logits (B, num_classes)."""
        padding = tokens == self.pad_id
        h = self.encoder(self.positions(self.embedding(tokens)), padding)  # (B, T, d)
        valid = (~padding).unsqueeze(-1).to(h.dtype)  # (B, T, 1)
        pooled = (h * valid).sum(dim=1) / valid.sum(dim=1)
        return self.head(pooled)
