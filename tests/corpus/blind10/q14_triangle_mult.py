import torch
import torch.nn as nn


class TriangleMultiplicationOutgoing(nn.Module):
    def __init__(self, c_z=16, c_hidden=16):
        super().__init__()
        self.layer_norm_in = nn.LayerNorm(c_z)
        self.linear_a_p = nn.Linear(c_z, c_hidden)
        self.linear_a_g = nn.Linear(c_z, c_hidden)
        self.linear_b_p = nn.Linear(c_z, c_hidden)
        self.linear_b_g = nn.Linear(c_z, c_hidden)
        self.layer_norm_out = nn.LayerNorm(c_hidden)
        self.linear_z = nn.Linear(c_hidden, c_z)
        self.linear_g = nn.Linear(c_z, c_z)

    def forward(self, z, mask):
        # z: [B, N, N, c_z]; mask: [B, N, N]
        mask = mask.unsqueeze(-1)
        z = self.layer_norm_in(z)
        a = mask * torch.sigmoid(self.linear_a_g(z)) * self.linear_a_p(z)
        b = mask * torch.sigmoid(self.linear_b_g(z)) * self.linear_b_p(z)
        x = torch.einsum("bikc,bjkc->bijc", a, b)
        x = self.linear_z(self.layer_norm_out(x))
        return x * torch.sigmoid(self.linear_g(z))


class TriangleMultiplicationIncoming(TriangleMultiplicationOutgoing):
    def forward(self, z, mask):
        mask = mask.unsqueeze(-1)
        z = self.layer_norm_in(z)
        a = mask * torch.sigmoid(self.linear_a_g(z)) * self.linear_a_p(z)
        b = mask * torch.sigmoid(self.linear_b_g(z)) * self.linear_b_p(z)
        x = torch.einsum("bkic,bkjc->bijc", a, b)
        x = self.linear_z(self.layer_norm_out(x))
        return x * torch.sigmoid(self.linear_g(z))


class PairStack(nn.Module):
    def __init__(self, c_z=16):
        super().__init__()
        self.out = TriangleMultiplicationOutgoing(c_z)
        self.inc = TriangleMultiplicationIncoming(c_z)
        self.transition = nn.Sequential(nn.LayerNorm(c_z), nn.Linear(c_z, 4 * c_z), nn.ReLU(), nn.Linear(4 * c_z, c_z))

    def forward(self, z, seq_mask):
        pair_mask = seq_mask[:, :, None] * seq_mask[:, None, :]
        z = z + self.out(z, pair_mask)
        z = z + self.inc(z, pair_mask)
        return z + self.transition(z)


def build():
    torch.manual_seed(0)
    model = PairStack().eval()
    B, N = 2, 9
    z = torch.randn(B, N, N, 16)
    seq_mask = torch.ones(B, N)
    seq_mask[0, 6:] = 0
    return model, (z, seq_mask)
