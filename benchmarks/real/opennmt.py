"""OpenNMT/OpenNMT-py: its Transformer language model (`TransformerLMDecoder`) and encoder-decoder (`TransformerEncoder` + `TransformerDecoder`), pre-norm, sinusoidal positions, pad id 1, masks with True = hidden (`masked_fill(mask, -1e18)`).

Built by hand from the classes (d 32, 2 layers, 4 heads; `model_builder` needs the option
parser). `build_lm` runs a training pass on 2 left-padded samples of 7 tokens (the second
with 3 pads); `build_lm_prefill` the same prompt as decoding's step 0, which fills the KV
cache and zeroes the padded values (`value.masked_fill(key_pad_mask, 0)`); `build_nmt`
a training pass with padded sources (`src_len`) and padded targets; `build_nmt_decode`
translation's first two steps through the cache. All are correct and must be clean: the pad
queries, whose every key is hidden, get every key instead (`patch_mask`), so their outputs see
the future, but they are padding and no real position moves (the ids come as (B, T, 1): their
batch dim and their padding are read through the trailing dim).
`build_lm_decode` prefills and then decodes one token: the step builds no mask at all
(`dec_mask` only when more than one query), so the new token attends to the padded cache
positions; their values are zero, but their keys take softmax weight, so the pad
embeddings move the output (by 0.44 at sample 1's decoded token when the pad row is
redrawn). A **true** `padding-leak`, the right expectation.
`build_causal_leak` plants a leak: the layers' future mask built with `tril_(1)`.
`onmt`'s package `__init__`s import the data pipeline and its tokenizer (pyonmttok), so
the packages are registered without them.
"""

from __future__ import annotations

import torch
from torch import nn

from benchmarks.real import source_module, source_package

REPOSITORY = "OpenNMT/OpenNMT-py"
COMMIT = "97111d9"
FOLDER = "OpenNMT-py"
PAD = 1
EXPECTED = {"build_lm": [], "build_lm_prefill": [], "build_lm_decode": ["padding-leak"], "build_nmt": [],
            "build_nmt_decode": [], "build_causal_leak": ["causal-leak"]}
SIZES = dict(num_layers=2, d_model=32, heads=4, d_ff=64, copy_attn=False, self_attn_type="scaled-dot",
             dropout=0.0, attention_dropout=0.0, max_relative_positions=0, relative_positions_buckets=0,
             aan_useffn=False)


def _code(name: str):
    source_package(FOLDER, "onmt", "onmt.encoders", "onmt.decoders", "onmt.models")
    return source_module(FOLDER, name)


def _embeddings():
    return _code("onmt.modules.embeddings").Embeddings(32, 64, PAD, position_encoding=True)


def _initialized(model: nn.Module) -> nn.Module:
    """OpenNMT builds its linears and embeddings with `skip_init` (memory left as it was) and
    initializes them in `model_builder` (Glorot with `param_init_glorot`), which is not run here."""
    for module in model.modules():
        if isinstance(module, nn.Linear):
            nn.init.xavier_uniform_(module.weight)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.xavier_uniform_(module.weight)
    return model.eval()


def _left_padded(pads: tuple[int, ...], length: int) -> torch.Tensor:
    """Ids (B, length, 1) with `pads[b]` pad ids before sample b's tokens, as a prompt batch is padded."""
    ids = torch.randint(4, 64, (len(pads), length, 1))
    for row, count in enumerate(pads):
        ids[row, :count] = PAD
    return ids


class LanguageModelSteps(nn.Module):
    """OpenNMT's LM decoder and a generator, run as training (no `step`) or as decoding steps."""

    def __init__(self, decode_steps: int | None) -> None:
        super().__init__()
        self.decoder = _code("onmt.decoders.transformer").TransformerLMDecoder(embeddings=_embeddings(), **SIZES)
        self.generator = nn.Linear(32, 64)
        self.decode_steps = decode_steps  # None: training; 0: the prompt only; n: the prompt, then n tokens

    def forward(self, prompt, continuation):
        if self.decode_steps is None:
            return self.generator(self.decoder(prompt)[0])
        outputs = [self.decoder(prompt, step=0)[0]]
        for offset in range(self.decode_steps):
            outputs.append(self.decoder(continuation[:, offset:offset + 1], step=prompt.size(1) + offset)[0])
        return self.generator(torch.cat(outputs, dim=1))


class Translation(nn.Module):
    """OpenNMT's encoder-decoder and a generator: teacher forcing, or decoding steps through the cache."""

    def __init__(self, decode_steps: int | None) -> None:
        super().__init__()
        self.encoder = _code("onmt.encoders.transformer").TransformerEncoder(embeddings=_embeddings(), **{
            key: SIZES[key] for key in ("num_layers", "d_model", "heads", "d_ff", "dropout", "attention_dropout",
                                        "max_relative_positions", "relative_positions_buckets")})
        self.decoder = _code("onmt.decoders.transformer").TransformerDecoder(
            embeddings=_embeddings(), full_context_alignment=False, alignment_layer=0, alignment_heads=0, **SIZES)
        self.generator = nn.Linear(32, 64)
        self.decode_steps = decode_steps

    def forward(self, src, src_len, tgt):
        enc_out, _, src_len = self.encoder(src, src_len)
        self.decoder.init_state(src, enc_out, None)
        if self.decode_steps is None:
            return self.generator(self.decoder(tgt[:, :-1], enc_out, src_len=src_len)[0])
        outputs = [self.decoder(tgt[:, step:step + 1], enc_out, step=step, src_len=src_len)[0]
                   for step in range(self.decode_steps)]
        return self.generator(torch.cat(outputs, dim=1))


def _lm(decode_steps: int | None, future_diagonal: int = 0):
    torch.manual_seed(0)
    model = _initialized(LanguageModelSteps(decode_steps))
    if future_diagonal:
        _plant_future_diagonal(model.decoder, future_diagonal)
    return model, (_left_padded((0, 3), 7), torch.randint(4, 64, (2, 2, 1)))


def _plant_future_diagonal(decoder, diagonal: int) -> None:
    """The planted bug: each layer's future mask keeps `diagonal` keys past the query."""
    layer_class = type(decoder.transformer_layers[0])

    def compute_dec_mask(layer, tgt_pad_mask, future):  # the repository's, without patch_mask, tril_(diagonal)
        size = tgt_pad_mask.size(-1)
        hidden = ~torch.ones(size, size, dtype=torch.bool).tril_(diagonal)
        return torch.gt(tgt_pad_mask + hidden.view(1, size, size), 0)

    for layer in decoder.transformer_layers:
        layer._compute_dec_mask = compute_dec_mask.__get__(layer, layer_class)


def build_lm():
    return _lm(decode_steps=None)


def build_lm_prefill():
    return _lm(decode_steps=0)


def build_lm_decode():
    return _lm(decode_steps=1)


def _nmt(decode_steps: int | None):
    torch.manual_seed(0)
    src = torch.randint(4, 64, (2, 6, 1))
    src[1, 4:] = PAD
    tgt = torch.randint(4, 64, (2, 5, 1))
    tgt[0, 4:] = PAD
    return _initialized(Translation(decode_steps)), (src, torch.tensor([6, 4]), tgt)


def build_nmt():
    return _nmt(decode_steps=None)


def build_nmt_decode():
    return _nmt(decode_steps=2)


def build_causal_leak():
    return _lm(decode_steps=None, future_diagonal=1)
