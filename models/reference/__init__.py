"""The course's reference Transformer, in plain PyTorch: every formula written out by hand.

Nothing here imports attnscope's tracer or UI; each file reads like a textbook page.
"""

from .attention import MultiHeadAttention, loop_attention, scaled_dot_product_attention
from .classifiers import GRUClassifier, TransformerClassifier
from .layernorm import LayerNorm
from .layers import DecoderLayer, EncoderLayer, FeedForward
from .positional import SinusoidalPositionalEncoding, sinusoidal_positions
from .transformer import EncoderDecoderTransformer, TransformerDecoder, TransformerEncoder

__all__ = [
    "DecoderLayer",
    "EncoderDecoderTransformer",
    "EncoderLayer",
    "FeedForward",
    "GRUClassifier",
    "LayerNorm",
    "MultiHeadAttention",
    "SinusoidalPositionalEncoding",
    "TransformerClassifier",
    "TransformerDecoder",
    "TransformerEncoder",
    "loop_attention",
    "scaled_dot_product_attention",
    "sinusoidal_positions",
]
