"""scGPT-style single-cell encoder: gene tokens + binned expression values.

A cell is a set of (gene id, expression) pairs sampled from the cell's highly variable genes;
cells with fewer sampled genes are padded with gene id 0. Expression is binned per cell into
equal-frequency bins over the genes the cell expresses (value > 0), as in scGPT's preprocessing,
done on the fly so the model can take log1p-normalized counts. Bin 0 = not expressed. A <cls>
token is prepended; the cell embedding is either that token or the average of the gene tokens.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ExpressionBinner(nn.Module):
    def __init__(self, n_bins):
        super().__init__()
        self.register_buffer("q", torch.linspace(0, 1, n_bins + 1)[1:-1])

    def forward(self, values, pad):
        expressed = values > 0
        ref = values.masked_fill(~expressed, float("nan"))
        edges = torch.nanquantile(ref, self.q, dim=1).T.contiguous()
        bins = torch.searchsorted(edges, values.contiguous(), right=True) + 1
        return bins.masked_fill(~expressed, 0)


class CellEncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, keep):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
        x = self.norm1(x + self.proj(o.transpose(1, 2).reshape(B, L, D)))
        return self.norm2(x + self.mlp(x))


class scCellEncoder(nn.Module):
    def __init__(self, n_genes=200, dim=32, heads=4, depth=2, n_bins=8, cell_emb_style="avg-pool"):
        super().__init__()
        self.pad_id, self.cls_id = 0, n_genes + 1
        self.cell_emb_style = cell_emb_style
        self.binner = ExpressionBinner(n_bins)
        self.gene_emb = nn.Embedding(n_genes + 2, dim, padding_idx=0)
        self.value_emb = nn.Embedding(n_bins + 1, dim)
        self.layers = nn.ModuleList(CellEncoderLayer(dim, heads) for _ in range(depth))
        self.expr_head = nn.Sequential(nn.Linear(dim, dim), nn.LeakyReLU(), nn.Linear(dim, 1))

    def forward(self, genes, values):
        pad = genes.eq(self.pad_id)
        x = self.gene_emb(genes) + self.value_emb(self.binner(values, pad))
        cls = self.gene_emb.weight[self.cls_id].expand(genes.size(0), 1, -1)
        h = torch.cat([cls, x], dim=1)
        keep = torch.cat([pad.new_ones(genes.size(0), 1), ~pad], dim=1)
        for layer in self.layers:
            h = layer(h, keep)
        if self.cell_emb_style == "cls":
            cell = h[:, 0]
        else:
            keep_genes = (~pad).unsqueeze(-1).float()
            cell = (h[:, 1:] * keep_genes).sum(dim=1) / keep_genes.sum(dim=1)
        return cell, self.expr_head(h[:, 1:]).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = scCellEncoder().eval()
    genes = torch.stack([torch.randperm(200)[:20] + 1 for _ in range(3)])
    values = torch.relu(torch.randn(3, 20) + 0.5)
    genes[0, 14:], genes[2, 9:] = 0, 0
    return model, (genes, values)
