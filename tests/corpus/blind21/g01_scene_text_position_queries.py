"""Scene text recognition with a PARSeq-style decoder (Bautista & Atienza, 2022).

Position queries attend to a context stream [BOS, c_1, .., c_{T-1}] and to the image patches.
Attention masks are generated from a decoding permutation (training samples several); for
teacher-forced scoring and inference the canonical left-to-right permutation is used.
"""
import torch
import torch.nn as nn

CHARSET = "0123456789abcdefghijklmnopqrstuvwxyz"
EOS, BOS, PAD = 0, len(CHARSET) + 1, len(CHARSET) + 2


def generate_attn_masks(perm):
    sz = perm.shape[0]
    mask = torch.zeros(sz, sz, device=perm.device)
    for i in range(sz):
        query_idx = perm[i]
        masked_keys = perm[i + 1:]
        mask[query_idx, masked_keys] = float("-inf")
    content_mask = mask[:-1, :-1].clone()
    mask[torch.eye(sz, dtype=torch.bool, device=perm.device)] = float("-inf")   # a query may not see its own char
    query_mask = mask[1:, :-1]
    return content_mask, query_mask


class TwoStreamLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=0.1, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(dim, heads, dropout=0.1, batch_first=True)
        self.norm_q, self.norm_c, self.norm1, self.norm2 = (nn.LayerNorm(dim) for _ in range(4))
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def stream(self, tgt, tgt_norm, kv_norm, memory, mask):
        tgt = tgt + self.self_attn(tgt_norm, kv_norm, kv_norm, attn_mask=mask, need_weights=False)[0]
        m = self.norm1(tgt)
        tgt = tgt + self.cross_attn(m, memory, memory, need_weights=False)[0]
        return tgt + self.ff(self.norm2(tgt))

    def forward(self, query, content, memory, query_mask, content_mask, update_content=True):
        q_norm, c_norm = self.norm_q(query), self.norm_c(content)
        query = self.stream(query, q_norm, c_norm, memory, query_mask)
        if update_content:
            content = self.stream(content, c_norm, c_norm, memory, content_mask)
        return query, content


class PARSeqLite(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, max_len=25, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.img_pos = nn.Parameter(torch.randn(1, 16, dim) * 0.02)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True, norm_first=True), 2,
            enable_nested_tensor=False)
        self.text_embed = nn.Embedding(len(CHARSET) + 3, dim)
        self.pos_queries = nn.Parameter(torch.randn(1, max_len + 1, dim) * 0.02)
        self.layers = nn.ModuleList([TwoStreamLayer(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, len(CHARSET) + 1)                            # chars + EOS

    def forward(self, images, tgt):
        """images (B, 3, 16, 64); tgt (B, T) ground-truth characters (teacher forcing)"""
        B, T = tgt.shape
        memory = self.encoder(self.patch_embed(images).flatten(2).transpose(1, 2) + self.img_pos)
        content_mask, query_mask = generate_attn_masks(torch.arange(T + 1, device=tgt.device))
        ctx = torch.cat([torch.full_like(tgt[:, :1], BOS), tgt[:, :-1]], dim=1)
        content = torch.cat([self.text_embed(ctx[:, :1]), self.text_embed(ctx[:, 1:]) + self.pos_queries[:, : T - 1]], 1)
        query = self.pos_queries[:, :T].expand(B, -1, -1)
        for i, layer in enumerate(self.layers):
            query, content = layer(query, content, memory, query_mask, content_mask, update_content=i < len(self.layers) - 1)
        return self.head(self.norm(query))


def build():
    torch.manual_seed(0)
    model = PARSeqLite().eval()
    images = torch.randn(2, 3, 16, 64)
    tgt = torch.randint(1, len(CHARSET) + 1, (2, 10))
    tgt[0, 7], tgt[0, 8:] = EOS, PAD
    return model, (images, tgt)
