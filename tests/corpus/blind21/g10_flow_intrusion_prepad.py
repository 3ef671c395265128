"""Network intrusion detection from the first packets of each flow (CIC-IDS2017-style labels).

Every flow is described by its first N packets (log size, log inter-arrival time, direction,
TCP flags). Shorter flows are pre-padded, as Keras' pad_sequences does by default in the
preprocessing this model is trained on, so the most recent packet always sits at index N-1.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = ["benign", "dos", "portscan", "bruteforce", "botnet"]


class FlowClassifier(nn.Module):
    def __init__(self, n_feats=6, dim=32, heads=4, depth=2, max_packets=64, p_drop=0.2):
        super().__init__()
        self.p_drop = p_drop
        self.inp = nn.Linear(n_feats, dim)
        self.pos = nn.Embedding(max_packets, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.pool_score = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 1))
        self.cls = nn.Linear(dim, len(CLASSES))

    def forward(self, packets, packet_mask):
        # index of each packet counted from the first real packet of its flow
        pos = (packet_mask.cumsum(1) - 1).clamp(min=0)
        x = self.inp(packets) + self.pos(pos)
        h = self.encoder(x, src_key_padding_mask=~packet_mask)
        scores = self.pool_score(h).squeeze(-1).masked_fill(~packet_mask, float("-inf"))
        w = scores.softmax(dim=1)
        flow = (w.unsqueeze(-1) * h).sum(dim=1)
        flow = F.dropout(flow, self.p_drop, self.training)
        return self.cls(flow)


def featurize(sizes, iats, directions, flags):
    base = torch.stack([torch.log1p(sizes), torch.log1p(iats * 1e3), directions], dim=-1)
    return torch.cat([base, flags], dim=-1)                                # (B, N, 6)


def build():
    torch.manual_seed(0)
    model = FlowClassifier().eval()
    B, N = 3, 16
    lengths = torch.tensor([16, 9, 4])
    packet_mask = torch.arange(N)[None] >= (N - lengths)[:, None]          # pre-padding
    sizes = torch.randint(40, 1500, (B, N)).float()
    iats = torch.rand(B, N) * 0.05
    directions = torch.randint(0, 2, (B, N)).float()
    flags = torch.randint(0, 2, (B, N, 3)).float()
    packets = featurize(sizes, iats, directions, flags) * packet_mask.unsqueeze(-1)
    return model, (packets, packet_mask)
