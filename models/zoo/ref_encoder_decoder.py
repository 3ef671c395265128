"""Reference encoder-decoder Transformer (2 layers, d=32, H=4, vocab 50) on padded token ids.

src (2, 7) and tgt (2, 5) hold ids 1..49 with trailing [PAD] = 0 in sample 1; the model
derives the key padding masks from the pad id and the causal mask for the decoder.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import EncoderDecoderTransformer

EXPECTED: tuple[str, ...] = ()


def build() -> tuple[nn.Module, tuple[Tensor, Tensor]]:
    torch.manual_seed(0)
    model = EncoderDecoderTransformer(
        src_vocab=50, tgt_vocab=50, d_model=32, num_heads=4, d_ff=64, num_layers=2, max_len=16
    )
    src = torch.randint(1, 50, (2, 7))
    src[1, 5:] = 0
    tgt = torch.randint(1, 50, (2, 5))
    tgt[1, 3:] = 0
    return model.eval(), (src, tgt)
