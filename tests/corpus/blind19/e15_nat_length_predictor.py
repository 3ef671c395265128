"""Non-autoregressive translation (Gu et al., 2018 style) with a length predictor.

The encoder output is pooled to predict the target length offset, and the decoder inputs are
copied from the source by uniform mapping (soft copy) before bidirectional decoding."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 1


class LengthPredictor(nn.Module):
    def __init__(self, d, max_offset=8):
        super().__init__()
        self.max_offset = max_offset
        self.proj = nn.Linear(d, 2 * max_offset + 1)

    def forward(self, enc_out, src_pad):
        pooled = enc_out.mean(dim=1)
        return self.proj(pooled)


def uniform_copy(enc_out, src_lens, tgt_len):
    """each target position j copies the source state at round(j * src_len / tgt_len)"""
    j = torch.arange(tgt_len, device=enc_out.device)[None].float()
    idx = torch.round(j * (src_lens[:, None].float() - 1) / max(tgt_len - 1, 1)).long()
    return torch.gather(enc_out, 1, idx[..., None].expand(-1, -1, enc_out.size(-1)))


class NATransformer(nn.Module):
    def __init__(self, vocab=100, d=32, h=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=PAD)
        self.pos = nn.Embedding(64, d)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, h, 64, dropout=0.1, batch_first=True), layers, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d, h, 64, dropout=0.1, batch_first=True), layers)
        self.length = LengthPredictor(d)
        self.out = nn.Linear(d, vocab)

    def forward(self, src_tokens, tgt_len: int = 10):
        src_pad = src_tokens.eq(PAD)
        S = src_tokens.size(1)
        enc = self.encoder(self.embed(src_tokens) + self.pos.weight[:S], src_key_padding_mask=src_pad)
        length_logits = self.length(enc, src_pad)
        src_lens = (~src_pad).sum(1)
        dec_in = uniform_copy(enc, src_lens, tgt_len) + self.pos.weight[:tgt_len]
        dec = self.decoder(dec_in, enc, memory_key_padding_mask=src_pad)
        return self.out(dec), length_logits


def build():
    torch.manual_seed(0)
    model = NATransformer().eval()
    src = torch.randint(4, 100, (3, 14))
    src[0, 10:] = PAD
    src[2, 6:] = PAD
    return model, (src,)
