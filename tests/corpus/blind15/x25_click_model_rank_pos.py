"""Context-aware neural click model for search result pages: each result is encoded together
with the other results on the page, plus a learned embedding of its rank (position bias).
"""
import torch
import torch.nn as nn


class ClickTransformer(nn.Module):
    def __init__(self, n_features=12, d_model=32, n_heads=4, n_layers=2, max_rank=10):
        super().__init__()
        self.feature_proj = nn.Sequential(nn.Linear(n_features, d_model), nn.ReLU(), nn.Linear(d_model, d_model))
        self.rank_emb = nn.Embedding(max_rank, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=2 * d_model, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.relevance = nn.Linear(d_model, 1)
        self.examination = nn.Linear(d_model, 1)

    def forward(self, doc_features, result_mask):
        x = self.feature_proj(doc_features)
        x = x + self.rank_emb(torch.arange(x.size(0), device=x.device)).unsqueeze(1)
        h = self.encoder(x, src_key_padding_mask=~result_mask)
        # examination hypothesis: P(click) = P(examined | rank, context) * P(relevant | doc, context)
        p_click = torch.sigmoid(self.examination(h)) * torch.sigmoid(self.relevance(h))
        return p_click.squeeze(-1) * result_mask


def build():
    torch.manual_seed(0)
    model = ClickTransformer().eval()
    n_results = torch.tensor([10, 7, 10])
    result_mask = torch.arange(10)[None, :] < n_results[:, None]
    doc_features = torch.randn(3, 10, 12) * result_mask[..., None]
    return model, (doc_features, result_mask)
