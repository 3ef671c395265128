"""Transformer layers: the position-wise feed-forward network, an encoder layer, a decoder layer.

Each sublayer has a residual connection, dropout and a LayerNorm. Post-norm (the original
paper) normalizes after the residual sum; pre-norm (common today) normalizes the sublayer's
input and leaves the residual path untouched. `norm_first` chooses; always check which one a
diagram or a piece of code uses.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import MultiHeadAttention
from .layernorm import LayerNorm


class FeedForward(nn.Module):
    """FFN(X) = max(0, X W_1 + b_1) W_2 + b_2, the same parameters at every position."""

    def __init__(self, d_model: int, d_ff: int) -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, x: Tensor) -> Tensor:
        """x (..., d_model) -> (..., d_model)."""
        return self.linear2(torch.relu(self.linear1(x)))


class EncoderLayer(nn.Module):
    """Multi-head self-attention, then the FFN.

    Post-norm: X' = LN(X + MHA(X)), Y = LN(X' + FFN(X')).
    Pre-norm:  X' = X + MHA(LN(X)), Y = X' + FFN(LN(X')).
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        d_ff: int,
        dropout: float = 0.0,
        norm_first: bool = False,
    ) -> None:
        super().__init__()
        self.norm_first = norm_first
        self.self_attn = MultiHeadAttention(d_model, num_heads)
        self.ffn = FeedForward(d_model, d_ff)
        self.norm1 = LayerNorm(d_model)
        self.norm2 = LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def _attend(self, x: Tensor, key_padding_mask: Tensor | None) -> Tensor:
        return self.dropout(self.self_attn(x, key_padding_mask=key_padding_mask)[0])

    def forward(self, x: Tensor, key_padding_mask: Tensor | None = None) -> Tensor:
        """x (B, T, d), key_padding_mask (B, T) with True = padding -> (B, T, d)."""
        if self.norm_first:
            x = x + self._attend(self.norm1(x), key_padding_mask)
            return x + self.dropout(self.ffn(self.norm2(x)))
        x = self.norm1(x + self._attend(x, key_padding_mask))
        return self.norm2(x + self.dropout(self.ffn(x)))


class DecoderLayer(nn.Module):
    """Causal self-attention, then cross-attention, then the FFN.

    Cross-attention takes its queries from the decoder states (T_q rows) and its keys and
    values from the encoder outputs, the memory (T_k rows). The causal mask lets target
    position t read target positions <= t only, so training can run all positions at once.
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        d_ff: int,
        dropout: float = 0.0,
        norm_first: bool = False,
    ) -> None:
        super().__init__()
        self.norm_first = norm_first
        self.self_attn = MultiHeadAttention(d_model, num_heads)
        self.cross_attn = MultiHeadAttention(d_model, num_heads)
        self.ffn = FeedForward(d_model, d_ff)
        self.norm1 = LayerNorm(d_model)
        self.norm2 = LayerNorm(d_model)
        self.norm3 = LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def _self_attend(self, y: Tensor, tgt_key_padding_mask: Tensor | None) -> Tensor:
        out, _ = self.self_attn(y, key_padding_mask=tgt_key_padding_mask, causal=True)
        return self.dropout(out)

    def _cross_attend(
        self, y: Tensor, memory: Tensor, memory_key_padding_mask: Tensor | None
    ) -> Tensor:
        out, _ = self.cross_attn(y, memory, key_padding_mask=memory_key_padding_mask)
        return self.dropout(out)

    def forward(
        self,
        y: Tensor,
        memory: Tensor,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
    ) -> Tensor:
        """y (B, T_q, d), memory (B, T_k, d); masks (B, T_q) / (B, T_k), True = padding."""
        if self.norm_first:
            y = y + self._self_attend(self.norm1(y), tgt_key_padding_mask)
            y = y + self._cross_attend(self.norm2(y), memory, memory_key_padding_mask)
            return y + self.dropout(self.ffn(self.norm3(y)))
        y = self.norm1(y + self._self_attend(y, tgt_key_padding_mask))
        y = self.norm2(y + self._cross_attend(y, memory, memory_key_padding_mask))
        return self.norm3(y + self.dropout(self.ffn(y)))
