"""FT-Transformer for tabular data: every numerical and categorical feature becomes a token,
a [CLS] token is appended and read out after the transformer."""
import torch
import torch.nn as nn


class FeatureTokenizer(nn.Module):
    def __init__(self, n_num, cat_cardinalities, d_token):
        super().__init__()
        self.num_weight = nn.Parameter(torch.randn(n_num, d_token) * 0.4)
        self.num_bias = nn.Parameter(torch.randn(n_num, d_token) * 0.4)
        self.register_buffer("cat_offsets", torch.tensor([0] + cat_cardinalities[:-1]).cumsum(0))
        self.cat_emb = nn.Embedding(sum(cat_cardinalities), d_token)
        self.cat_bias = nn.Parameter(torch.randn(len(cat_cardinalities), d_token) * 0.4)
        self.cls = nn.Parameter(torch.randn(1, 1, d_token) * 0.4)

    def forward(self, x_num, x_cat):
        num_tokens = x_num[:, :, None] * self.num_weight + self.num_bias
        cat_tokens = self.cat_emb(x_cat + self.cat_offsets) + self.cat_bias
        cls = self.cls.expand(x_num.size(0), -1, -1)
        return torch.cat([num_tokens, cat_tokens, cls], dim=1)


class Block(nn.Module):
    def __init__(self, n_tokens, d_token, n_heads, first):
        super().__init__()
        self.attention_normalization = nn.Identity() if first else nn.LayerNorm([n_tokens, d_token])
        self.attention = nn.MultiheadAttention(d_token, n_heads, dropout=0.2, batch_first=True)
        self.ffn_normalization = nn.LayerNorm(d_token)
        self.ffn = nn.Sequential(nn.Linear(d_token, 2 * d_token), nn.ReLU(), nn.Dropout(0.1), nn.Linear(2 * d_token, d_token))

    def forward(self, x):
        h = self.attention_normalization(x)
        x = x + self.attention(h, h, h, need_weights=False)[0]
        return x + self.ffn(self.ffn_normalization(x))


class FTTransformer(nn.Module):
    def __init__(self, n_num=5, cat_cardinalities=(3, 7, 4), d_token=32, n_heads=4, n_blocks=3, d_out=1):
        super().__init__()
        cat_cardinalities = list(cat_cardinalities)
        n_tokens = n_num + len(cat_cardinalities) + 1
        self.tokenizer = FeatureTokenizer(n_num, cat_cardinalities, d_token)
        self.blocks = nn.ModuleList(Block(n_tokens, d_token, n_heads, i == 0) for i in range(n_blocks))
        self.head = nn.Sequential(nn.LayerNorm(d_token), nn.ReLU(), nn.Linear(d_token, d_out))

    def forward(self, x_num, x_cat):
        x = self.tokenizer(x_num, x_cat)
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, -1])


def build():
    torch.manual_seed(0)
    model = FTTransformer().eval()
    x_num = torch.randn(4, 5)
    x_cat = torch.stack([torch.randint(0, c, (4,)) for c in (3, 7, 4)], dim=1)
    return model, (x_num, x_cat)
