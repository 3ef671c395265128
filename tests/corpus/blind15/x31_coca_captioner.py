"""CoCa (Yu et al., 2022): contrastive captioner. An attentional pooler turns the image tokens
into one contrastive query and a few captioning queries; the text decoder is split into a
unimodal part (causal self-attention, with a [CLS] appended at the end for the text embedding)
and a multimodal part that cross-attends to the captioning queries.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionalPooler(nn.Module):
    def __init__(self, dim, n_queries, heads=4, dropout=0.1):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.queries = nn.Parameter(torch.randn(n_queries, dim) * 0.02)
        self.ln_k = nn.LayerNorm(dim)
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, D = x.shape
        q = self.q(self.queries).view(1, -1, self.heads, D // self.heads).transpose(1, 2)
        k, v = self.kv(self.ln_k(x)).view(B, N, 2, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * (D // self.heads) ** -0.5
        attn = attn.softmax(dim=-1)
        attn = F.dropout(attn, p=self.dropout, training=self.training)
        out = (attn @ v).transpose(1, 2).reshape(B, -1, D)
        return self.o(out)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads, cross=False):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.cross = cross
        if cross:
            self.ln_x = nn.LayerNorm(dim)
            self.cross_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, blocked, memory=None):
        h = self.ln1(x)
        x = x + self.self_attn(h, h, h, attn_mask=blocked, need_weights=False)[0]
        if self.cross:
            x = x + self.cross_attn(self.ln_x(x), memory, memory, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class CoCa(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, embed_dim=24, n_caption_queries=8, patch=4, image=16, max_len=32):
        super().__init__()
        self.heads, self.patch = heads, patch
        self.patch_embed = nn.Linear(3 * patch * patch, dim)
        self.img_pos = nn.Parameter(torch.randn(1, (image // patch) ** 2, dim) * 0.02)
        self.vision = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.pooler = AttentionalPooler(dim, 1 + n_caption_queries, heads)
        self.tok = nn.Embedding(vocab, dim)
        self.txt_pos = nn.Parameter(torch.randn(1, max_len, dim) * 0.02)
        self.cls_emb = nn.Parameter(torch.randn(dim) * 0.02)
        self.unimodal = nn.ModuleList(DecoderLayer(dim, heads) for _ in range(2))
        self.multimodal = nn.ModuleList(DecoderLayer(dim, heads, cross=True) for _ in range(2))
        self.ln_cls, self.ln_out = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.text_proj, self.image_proj = nn.Linear(dim, embed_dim), nn.Linear(dim, embed_dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, image, text, text_mask):
        B, T = text.shape
        p = image.unfold(2, self.patch, self.patch).unfold(3, self.patch, self.patch)
        p = p.permute(0, 2, 3, 1, 4, 5).reshape(B, -1, 3 * self.patch * self.patch)
        img = self.vision(self.patch_embed(p) + self.img_pos)
        pooled = self.pooler(img)
        image_emb = F.normalize(self.image_proj(pooled[:, 0]), dim=-1)
        caption_queries = pooled[:, 1:]

        x = torch.cat([self.tok(text) + self.txt_pos[:, :T], self.cls_emb.expand(B, 1, -1)], dim=1)
        L = T + 1
        visible = torch.ones(L, L, dtype=torch.bool, device=text.device).tril().expand(B, L, L).clone()
        visible[:, -1] = torch.cat([text_mask, text_mask.new_ones(B, 1)], dim=1)   # [CLS] reads the real tokens
        blocked = (~visible).repeat_interleave(self.heads, dim=0)
        for layer in self.unimodal:
            x = layer(x, blocked)
        text_emb = F.normalize(self.text_proj(self.ln_cls(x[:, -1])), dim=-1)
        h = x[:, :-1]
        for layer in self.multimodal:
            h = layer(h, blocked[:, :-1, :-1], caption_queries)
        return self.lm_head(self.ln_out(h)), text_emb, image_emb


def build():
    torch.manual_seed(0)
    model = CoCa().eval()
    image = torch.randn(2, 3, 16, 16)
    lengths = torch.tensor([10, 6])
    text_mask = torch.arange(10)[None, :] < lengths[:, None]
    text = torch.randint(1, 50, (2, 10)) * text_mask
    return model, (image, text, text_mask)
