import torch
import torch.nn as nn
import torch.nn.functional as F


def index_points(points, idx):
    B = points.shape[0]
    batch = torch.arange(B, device=points.device).view(B, 1, 1).expand_as(idx)
    return points[batch, idx]


class PointTransformerLayer(nn.Module):
    """Vector self-attention over k nearest neighbours (Point Transformer)."""

    def __init__(self, d_points=16, d_model=32, k=4):
        super().__init__()
        self.k = k
        self.fc1 = nn.Linear(d_points, d_model)
        self.fc2 = nn.Linear(d_model, d_points)
        self.fc_delta = nn.Sequential(nn.Linear(3, d_model), nn.ReLU(), nn.Linear(d_model, d_model))
        self.fc_gamma = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, d_model))
        self.w_qs = nn.Linear(d_model, d_model, bias=False)
        self.w_ks = nn.Linear(d_model, d_model, bias=False)
        self.w_vs = nn.Linear(d_model, d_model, bias=False)

    def forward(self, xyz, features):
        dists = torch.cdist(xyz, xyz)
        knn_idx = dists.argsort()[:, :, : self.k]  # b x n x k
        knn_xyz = index_points(xyz, knn_idx)
        pre = features
        x = self.fc1(features)
        q, k, v = self.w_qs(x), index_points(self.w_ks(x), knn_idx), index_points(self.w_vs(x), knn_idx)
        pos_enc = self.fc_delta(xyz[:, :, None] - knn_xyz)  # b x n x k x f
        attn = self.fc_gamma(q[:, :, None] - k + pos_enc)
        attn = F.softmax(attn / (k.size(-1) ** 0.5), dim=1)  # b x n x k x f
        res = torch.einsum("bmnf,bmnf->bmf", attn, v + pos_enc)
        return self.fc2(res) + pre


class PointSegNet(nn.Module):
    def __init__(self, d_points=16, n_cls=4):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(3, d_points), nn.ReLU())
        self.layers = nn.ModuleList(PointTransformerLayer(d_points) for _ in range(2))
        self.head = nn.Linear(d_points, n_cls)

    def forward(self, xyz):
        f = self.embed(xyz)
        for layer in self.layers:
            f = layer(xyz, f)
        return self.head(f)


def build():
    torch.manual_seed(0)
    model = PointSegNet().eval()
    xyz = torch.rand(2, 10, 3)
    return model, (xyz,)
