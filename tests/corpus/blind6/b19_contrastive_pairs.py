"""CLIP-style dual encoder producing the (B, B) image-text similarity table."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids, attention_mask):
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.shape[1], device=input_ids.device))
        x = self.encoder(x, src_key_padding_mask=attention_mask == 0)
        x = self.norm(x)
        m = attention_mask.unsqueeze(-1).to(x.dtype)
        return (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1.0)


class ImageEncoder(nn.Module):
    def __init__(self, patch_dim=24, dim=32):
        super().__init__()
        self.proj = nn.Linear(patch_dim, dim)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, patches):
        h = self.proj(patches)
        h = h + self.mlp(h)
        return h.mean(dim=1)


class DualEncoder(nn.Module):
    def __init__(self, embed_dim=16):
        super().__init__()
        self.image_encoder = ImageEncoder()
        self.text_encoder = TextEncoder()
        self.image_projection = nn.Linear(32, embed_dim, bias=False)
        self.text_projection = nn.Linear(32, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, patches, input_ids, attention_mask):
        image_embeds = F.normalize(self.image_projection(self.image_encoder(patches)), dim=-1)
        text_embeds = F.normalize(self.text_projection(self.text_encoder(input_ids, attention_mask)), dim=-1)
        logits_per_image = self.logit_scale.exp() * image_embeds @ text_embeds.t()
        logits_per_text = logits_per_image.t()
        return logits_per_image, logits_per_text


def build():
    torch.manual_seed(0)
    model = DualEncoder().eval()
    patches = torch.randn(3, 16, 24)
    lengths = torch.tensor([7, 4, 6])
    attention_mask = (torch.arange(7)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(1, 100, (3, 7)) * attention_mask
    return model, (patches, input_ids, attention_mask)
