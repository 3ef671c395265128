"""Action Chunking with Transformers (ACT, Zhao et al., 2023), inference path.

Observation tokens = one proprioception token + a grid of camera features; a transformer
encoder fuses them, and a decoder with `chunk` learned action queries predicts the next
`chunk` joint-position targets in one shot. (The CVAE style variable is set to its prior mean
at test time.)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ACTPolicy(nn.Module):
    def __init__(self, joints=7, cam_ch=16, d=32, heads=4, chunk=8, p_drop=0.1):
        super().__init__()
        self.p_drop = p_drop
        self.proprio = nn.Linear(joints, d)
        self.cam = nn.Conv2d(cam_ch, d, kernel_size=1)
        self.latent = nn.Parameter(torch.zeros(1, 1, d))
        self.cam_pos = nn.Parameter(torch.randn(1, 24, d) * 0.02)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True, norm_first=True), 2,
            enable_nested_tensor=False)
        self.dec = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True, norm_first=True), 1)
        self.queries = nn.Embedding(chunk, d)
        self.action_head = nn.Linear(d, joints)

    def forward(self, qpos, cam_feats):  # qpos: (B, joints), cam_feats: (B, C, 4, 6)
        B = qpos.size(0)
        cam_tokens = self.cam(cam_feats).flatten(2).transpose(1, 2) + self.cam_pos
        tokens = torch.cat([self.latent.expand(B, -1, -1), self.proprio(qpos).unsqueeze(1), cam_tokens], dim=1)
        tokens = F.dropout(tokens, self.p_drop)
        memory = self.enc(tokens)
        q = self.queries.weight.unsqueeze(0).expand(B, -1, -1)
        h = self.dec(torch.zeros_like(q) + q, memory)
        return self.action_head(h)  # (B, chunk, joints)


def build():
    torch.manual_seed(0)
    model = ACTPolicy().eval()
    qpos = torch.randn(2, 7)
    cam_feats = torch.randn(2, 16, 4, 6)
    return model, (qpos, cam_feats)
