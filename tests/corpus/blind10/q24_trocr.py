import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEncoder(nn.Module):
    def __init__(self, img=16, patch=4, d=32, layers=1):
        super().__init__()
        self.proj = nn.Conv2d(1, d, patch, patch)
        self.pos = nn.Parameter(torch.randn(1, (img // patch) ** 2, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, 4, 64, 0.1, batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, pixels):
        x = self.proj(pixels).flatten(2).transpose(1, 2) + self.pos
        return self.enc(x)


class TextDecoder(nn.Module):
    def __init__(self, vocab=40, d=32, layers=2, max_len=16, pad_id=1):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab, d, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d)
        layer = nn.TransformerDecoderLayer(d, 4, 64, 0.1, batch_first=True, norm_first=True)
        self.dec = nn.TransformerDecoder(layer, layers)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, ids, memory):
        T = ids.size(1)
        x = self.tok(ids) + self.pos(torch.arange(T))[None]
        causal = nn.Transformer.generate_square_subsequent_mask(T)
        pad = ids.eq(self.pad_id)
        h = self.dec(x, memory, tgt_mask=causal, tgt_is_causal=True, tgt_key_padding_mask=pad)
        return self.lm_head(h)


class OCRModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = PatchEncoder()
        self.decoder = TextDecoder()

    def forward(self, pixel_values, decoder_input_ids):
        return self.decoder(decoder_input_ids, self.encoder(pixel_values))


def build():
    torch.manual_seed(0)
    model = OCRModel().eval()
    pixels = torch.rand(2, 1, 16, 16)
    ids = torch.full((2, 10), 1, dtype=torch.long)
    ids[:, 0] = 2  # decoder start token
    ids[0, 1:10] = torch.randint(3, 40, (9,))
    ids[1, 1:6] = torch.randint(3, 40, (5,))
    return model, (pixels, ids)
