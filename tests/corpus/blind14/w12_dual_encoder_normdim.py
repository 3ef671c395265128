"""CLIP-style dual encoder for image-text retrieval (tiny ViT + causal text transformer)."""
import torch
import torch.nn as nn


class ImageTower(nn.Module):
    def __init__(self, patch_dim=48, d=32, heads=4, n_patches=9):
        super().__init__()
        self.patch = nn.Linear(patch_dim, d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, n_patches + 1, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(d)

    def forward(self, patches):
        x = self.patch(patches)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], dim=1) + self.pos
        return self.ln(self.encoder(x)[:, 0])


class TextTower(nn.Module):
    def __init__(self, vocab=100, d=32, heads=4, max_len=12):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(max_len, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(d)

    def forward(self, ids, lengths):
        T = ids.size(1)
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=ids.device)
        x = self.encoder(self.tok(ids) + self.pos[:T], mask=causal, is_causal=True)
        x = self.ln(x)
        return x[torch.arange(ids.size(0)), lengths - 1]  # end-of-text token


class DualEncoder(nn.Module):
    def __init__(self, d=32, embed_dim=24):
        super().__init__()
        self.image = ImageTower(d=d)
        self.text = TextTower(d=d)
        self.image_proj = nn.Linear(d, embed_dim, bias=False)
        self.text_proj = nn.Linear(d, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(2.659))

    def forward(self, patches, ids, lengths):
        image_embeds = self.image_proj(self.image(patches))
        image_embeds = image_embeds / image_embeds.norm(dim=0, keepdim=True)
        text_embeds = self.text_proj(self.text(ids, lengths))
        text_embeds = text_embeds / text_embeds.norm(dim=-1, keepdim=True)
        logits_per_image = self.logit_scale.exp() * image_embeds @ text_embeds.t()
        return {"image_embeds": image_embeds, "text_embeds": text_embeds, "logits_per_image": logits_per_image}


def build():
    torch.manual_seed(0)
    model = DualEncoder().eval()
    patches = torch.randn(4, 9, 48)
    lengths = torch.tensor([12, 7, 9, 5])
    ids = torch.randint(1, 100, (4, 12)) * (torch.arange(12)[None] < lengths[:, None])
    return model, (patches, ids, lengths)
