import torch
import torch.nn as nn


class TransformerBlock(nn.Module):
    def __init__(self, embed_dim=32, num_heads=4, ff_dim=64, dropout=0.1):
        super().__init__()
        self.att = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout)
        self.ffn = nn.Sequential(nn.Linear(embed_dim, ff_dim), nn.ReLU(), nn.Linear(ff_dim, embed_dim))
        self.layernorm1 = nn.LayerNorm(embed_dim, eps=1e-6)
        self.layernorm2 = nn.LayerNorm(embed_dim, eps=1e-6)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)

    def forward(self, inputs):
        attn_output, _ = self.att(inputs, inputs, inputs)
        out1 = self.layernorm1(inputs + self.dropout1(attn_output))
        ffn_output = self.ffn(out1)
        return self.layernorm2(out1 + self.dropout2(ffn_output))


class TokenAndPositionEmbedding(nn.Module):
    def __init__(self, maxlen, vocab_size, embed_dim):
        super().__init__()
        self.token_emb = nn.Embedding(vocab_size, embed_dim)
        self.pos_emb = nn.Embedding(maxlen, embed_dim)

    def forward(self, x):
        positions = torch.arange(0, x.size(1), device=x.device)
        return self.token_emb(x) + self.pos_emb(positions)


class TextModel(nn.Module):
    def __init__(self, maxlen=16, vocab_size=40, embed_dim=32, n_classes=2):
        super().__init__()
        self.embedding = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)
        self.block = TransformerBlock(embed_dim)
        self.fc = nn.Linear(embed_dim, n_classes)

    def forward(self, x):
        h = self.block(self.embedding(x))
        return self.fc(h.mean(dim=1))


def build():
    torch.manual_seed(0)
    model = TextModel().eval()
    x = torch.randint(0, 40, (3, 7))
    return model, (x,)
