"""Encoder and decoder stacks, and the full encoder-decoder Transformer.

Token ids -> embeddings + sinusoidal positions -> N encoder layers (the memory);
target ids -> embeddings + positions -> N decoder layers reading the memory -> vocabulary
projection z_t = W_vocab h_t + b_vocab (logits, not probabilities).
"""

from __future__ import annotations

from torch import Tensor, nn

from .layernorm import LayerNorm
from .layers import DecoderLayer, EncoderLayer
from .positional import SinusoidalPositionalEncoding


class TransformerEncoder(nn.Module):
    """`num_layers` encoder layers applied in turn.

    A pre-norm stack ends with one more LayerNorm: its layers never normalize the residual
    path, so without it the stack's output would be unnormalized. A post-norm stack already
    ends in a LayerNorm.
    """

    def __init__(
        self,
        num_layers: int,
        d_model: int,
        num_heads: int,
        d_ff: int,
        dropout: float = 0.0,
        norm_first: bool = False,
    ) -> None:
        super().__init__()
        self.layers = nn.ModuleList(
            EncoderLayer(d_model, num_heads, d_ff, dropout, norm_first) for _ in range(num_layers)
        )
        self.final_norm = LayerNorm(d_model) if norm_first else nn.Identity()

    def forward(self, x: Tensor, key_padding_mask: Tensor | None = None) -> Tensor:
        """x (B, T, d), key_padding_mask (B, T) with True = padding -> (B, T, d)."""
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        return self.final_norm(x)


class TransformerDecoder(nn.Module):
    """`num_layers` decoder layers, each reading the same encoder memory (final norm as above)."""

    def __init__(
        self,
        num_layers: int,
        d_model: int,
        num_heads: int,
        d_ff: int,
        dropout: float = 0.0,
        norm_first: bool = False,
    ) -> None:
        super().__init__()
        self.layers = nn.ModuleList(
            DecoderLayer(d_model, num_heads, d_ff, dropout, norm_first) for _ in range(num_layers)
        )
        self.final_norm = LayerNorm(d_model) if norm_first else nn.Identity()

    def forward(
        self,
        y: Tensor,
        memory: Tensor,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
    ) -> Tensor:
        """y (B, T_q, d), memory (B, T_k, d) -> (B, T_q, d)."""
        for layer in self.layers:
            y = layer(y, memory, tgt_key_padding_mask, memory_key_padding_mask)
        return self.final_norm(y)


class EncoderDecoderTransformer(nn.Module):
    """The sequence-to-sequence Transformer; padding masks come from `pad_id`.

    The vocabulary projection W_vocab in R^{|V| x d} is a separate nn.Linear: it is not the
    inverse of the embedding (some models tie the two weights; this one does not).
    """

    def __init__(
        self,
        src_vocab: int,
        tgt_vocab: int,
        d_model: int,
        num_heads: int,
        d_ff: int,
        num_layers: int,
        max_len: int,
        pad_id: int = 0,
        dropout: float = 0.0,
        norm_first: bool = False,
    ) -> None:
        super().__init__()
        self.pad_id = pad_id
        self.src_embedding = nn.Embedding(src_vocab, d_model)
        self.tgt_embedding = nn.Embedding(tgt_vocab, d_model)
        self.positions = SinusoidalPositionalEncoding(max_len, d_model)
        self.encoder = TransformerEncoder(num_layers, d_model, num_heads, d_ff, dropout, norm_first)
        self.decoder = TransformerDecoder(num_layers, d_model, num_heads, d_ff, dropout, norm_first)
        self.vocab_projection = nn.Linear(d_model, tgt_vocab)

    def encode(self, src_tokens: Tensor) -> tuple[Tensor, Tensor]:
        """src_tokens (B, S) -> memory (B, S, d) and its padding mask (B, S), True = [PAD]."""
        src_padding = src_tokens == self.pad_id
        x = self.positions(self.src_embedding(src_tokens))
        return self.encoder(x, src_padding), src_padding

    def decode(self, tgt_tokens: Tensor, memory: Tensor, src_padding: Tensor) -> Tensor:
        """tgt_tokens (B, T), memory (B, S, d) -> logits (B, T, tgt_vocab).

        Padded target positions still get logits; they must be masked in the loss.
        """
        tgt_padding = tgt_tokens == self.pad_id
        y = self.positions(self.tgt_embedding(tgt_tokens))
        h = self.decoder(y, memory, tgt_padding, src_padding)
        return self.vocab_projection(h)

    def forward(self, src_tokens: Tensor, tgt_tokens: Tensor) -> Tensor:
        """src_tokens (B, S), tgt_tokens (B, T) -> logits (B, T, tgt_vocab)."""
        memory, src_padding = self.encode(src_tokens)
        return self.decode(tgt_tokens, memory, src_padding)
