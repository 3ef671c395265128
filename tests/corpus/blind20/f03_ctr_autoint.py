"""AutoInt+ click-through-rate model (Song et al., CIKM 2019).

Every categorical field and every bucketized dense feature becomes one field embedding; stacked
interacting layers let fields attend to each other (multi-head self-attention over the field axis)
to model high-order feature crosses, and a parallel DNN sees the flat embeddings.
"""
import torch
import torch.nn as nn


class InteractingLayer(nn.Module):
    def __init__(self, dim, heads=2, use_res=True, scaling=True):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.use_res, self.scaling = use_res, scaling
        self.W_query = nn.Linear(dim, dim, bias=False)
        self.W_key = nn.Linear(dim, dim, bias=False)
        self.W_value = nn.Linear(dim, dim, bias=False)
        self.W_res = nn.Linear(dim, dim, bias=False)

    def forward(self, e):
        B, n_fields, D = e.shape
        q = self.W_query(e).view(B, n_fields, self.heads, self.dh)
        k = self.W_key(e).view(B, n_fields, self.heads, self.dh)
        v = self.W_value(e).view(B, n_fields, self.heads, self.dh)
        inner = torch.einsum("bfhd,bghd->bhfg", q, k)
        if self.scaling:
            inner = inner / self.dh ** 0.5
        weights = inner.softmax(dim=2)
        out = torch.einsum("bhfg,bghd->bfhd", weights, v).reshape(B, n_fields, D)
        if self.use_res:
            out = out + self.W_res(e)
        return torch.relu(out)


class AutoIntPlus(nn.Module):
    def __init__(self, cardinalities=(40, 12, 7, 24, 90, 31), n_dense=2, n_buckets=16,
                 dim=16, n_layers=2, heads=2):
        super().__init__()
        self.sparse = nn.ModuleList(nn.Embedding(c, dim) for c in cardinalities)
        self.dense = nn.ModuleList(nn.Embedding(n_buckets, dim) for _ in range(n_dense))
        self.register_buffer("boundaries", torch.linspace(-2, 2, n_buckets - 1))
        n_fields = len(cardinalities) + n_dense
        self.interacting = nn.ModuleList(InteractingLayer(dim, heads) for _ in range(n_layers))
        self.att_out = nn.Linear(n_fields * dim, 1, bias=False)
        self.dnn = nn.Sequential(nn.Linear(n_fields * dim, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(),
                                 nn.Linear(32, 1, bias=False))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, sparse_ids, dense_x):
        fields = [emb(sparse_ids[:, i]) for i, emb in enumerate(self.sparse)]
        buckets = torch.bucketize(dense_x, self.boundaries)
        fields += [emb(buckets[:, i]) for i, emb in enumerate(self.dense)]
        e = torch.stack(fields, dim=1)
        flat = e.flatten(1)
        for layer in self.interacting:
            e = layer(e)
        logit = self.att_out(e.flatten(1)) + self.dnn(flat) + self.bias
        return torch.sigmoid(logit).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = AutoIntPlus().eval()
    cards = (40, 12, 7, 24, 90, 31)
    sparse_ids = torch.stack([torch.randint(0, c, (4,)) for c in cards], dim=1)
    dense_x = torch.randn(4, 2)
    return model, (sparse_ids, dense_x)
