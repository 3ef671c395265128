"""Bitemporal image change detection with semantic tokens (BIT, Chen et al., TGRS 2021).

A shared CNN encodes the two acquisition dates. A semantic tokenizer compresses each feature map
into L tokens: L spatial attention maps, each a softmax over the H*W pixels, pool the pixel
features. A Transformer encoder models context over the 2L tokens of both dates; a Transformer
decoder lets every pixel of each date (query) read that date's refined tokens (keys). The change
map is predicted from the absolute feature difference. With 4x4 feature maps and L = 8 tokens per
date, the encoder sequence (2L) and the pixel set (H*W) have the same length, 16.
"""
import torch
import torch.nn as nn


class SemanticTokenizer(nn.Module):
    def __init__(self, ch, n_tokens):
        super().__init__()
        self.attn_maps = nn.Conv2d(ch, n_tokens, 1, bias=False)

    def forward(self, x):
        B, C, H, W = x.shape
        a = self.attn_maps(x).flatten(2).softmax(dim=-1)
        return torch.einsum("blp,bcp->blc", a, x.flatten(2))


class BITChangeDetector(nn.Module):
    def __init__(self, ch=32, n_tokens=8, heads=4):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.ReLU())
        self.tokenizer = SemanticTokenizer(ch, n_tokens)
        self.token_pos = nn.Parameter(torch.randn(1, 2 * n_tokens, ch) * 0.02)
        enc = nn.TransformerEncoderLayer(ch, heads, 2 * ch, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(enc, 1, enable_nested_tensor=False)
        dec = nn.TransformerDecoderLayer(ch, heads, 2 * ch, dropout=0.1, batch_first=True, norm_first=True)
        self.decoder = nn.TransformerDecoder(dec, 2)
        self.classifier = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 2, 1))

    def refine(self, feat, tokens):
        B, C, H, W = feat.shape
        pixels = feat.flatten(2).transpose(1, 2)
        out = self.decoder(pixels, tokens)
        return out.transpose(1, 2).reshape(B, C, H, W)

    def forward(self, img_t1, img_t2):
        f1, f2 = self.backbone(img_t1), self.backbone(img_t2)
        L = self.tokenizer.attn_maps.out_channels
        tokens = torch.cat([self.tokenizer(f1), self.tokenizer(f2)], dim=1) + self.token_pos
        tokens = self.encoder(tokens)
        r1, r2 = self.refine(f1, tokens[:, :L]), self.refine(f2, tokens[:, L:])
        logits = self.classifier(torch.abs(r1 - r2))
        return nn.functional.interpolate(logits, size=img_t1.shape[-2:], mode="bilinear", align_corners=False)


def build():
    torch.manual_seed(0)
    model = BITChangeDetector().eval()
    img_t1 = torch.randn(3, 3, 16, 16)
    img_t2 = img_t1 + 0.5 * torch.randn(3, 3, 16, 16) * (torch.rand(3, 1, 16, 16) > 0.7)
    return model, (img_t1, img_t2)
