"""SigLIP-style dual encoder: pairwise sigmoid logits between every image and every caption of the batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, dim, heads, layers):
        super().__init__()
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, x, key_padding_mask=None):
        return self.layers(x, src_key_padding_mask=key_padding_mask)


class SigLIP(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, patch=4, max_len=16, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.img_pos = nn.Parameter(torch.randn(1, 4, dim) * 0.02)
        self.vision = Encoder(dim, heads, 2)
        self.map_probe = nn.Parameter(torch.randn(1, 1, dim))
        self.map_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.tok = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.txt_pos = nn.Embedding(max_len, dim)
        self.text = Encoder(dim, heads, 2)
        self.logit_scale = nn.Parameter(torch.tensor(10.0).log())
        self.logit_bias = nn.Parameter(torch.tensor(-10.0))

    def encode_image(self, pixel_values):
        x = self.patch_embed(pixel_values).flatten(2).transpose(1, 2) + self.img_pos
        x = self.vision(x)
        pooled, _ = self.map_attn(self.map_probe.expand(x.size(0), -1, -1), x, x, need_weights=False)
        return F.normalize(pooled[:, 0], dim=-1)

    def encode_text(self, input_ids, attention_mask):
        pad = attention_mask == 0
        x = self.tok(input_ids) + self.txt_pos(torch.arange(input_ids.size(1), device=input_ids.device))
        x = self.text(x, key_padding_mask=pad)
        last = (~pad).sum(1) - 1
        return F.normalize(x[torch.arange(x.size(0)), last], dim=-1)

    def forward(self, pixel_values, input_ids, attention_mask):
        img, txt = self.encode_image(pixel_values), self.encode_text(input_ids, attention_mask)
        # every image against every caption: the table couples the batch on purpose (sigmoid loss)
        return img @ txt.t() * self.logit_scale.exp() + self.logit_bias


def build():
    torch.manual_seed(0)
    model = SigLIP().eval()
    pixel_values = torch.randn(3, 3, 8, 8)
    input_ids = torch.randint(1, 60, (3, 9))
    input_ids[1, 6:] = 0
    input_ids[2, 4:] = 0
    attention_mask = (input_ids != 0).long()
    return model, (pixel_values, input_ids, attention_mask)
