"""Continuous sign-language recognition from pose keypoints (spatial-temporal Transformer + CTC).

Input: OpenPose body keypoints per frame, (x, y, confidence) for 18 joints, clips padded to the
longest clip of the batch. A spatial Transformer mixes the joints of each frame, an attention
pool turns the joints into one frame token, and a temporal Transformer over the frames feeds a
CTC gloss classifier. Joint identity and frame position are learned embeddings added up front.
"""
import torch
import torch.nn as nn


class PoseEmbedding(nn.Module):
    def __init__(self, n_joints, dim, max_frames=64):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(3, dim), nn.GELU(), nn.Linear(dim, dim))
        self.joint_emb = nn.Parameter(torch.randn(n_joints, dim) * 0.02)
        self.time_pos = nn.Parameter(torch.randn(max_frames, dim) * 0.02)

    def forward(self, keypoints):
        T = keypoints.size(1)
        return self.proj(keypoints) + self.joint_emb + self.time_pos[:T]


class JointPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, x):
        w = self.score(x).softmax(dim=-2)
        return (w * x).sum(dim=-2)


class PoseSLR(nn.Module):
    def __init__(self, n_joints=18, dim=32, heads=4, n_glosses=50):
        super().__init__()
        self.embed = PoseEmbedding(n_joints, dim)
        self.spatial = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True)
        self.pool = JointPool(dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True)
        self.temporal = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.ctc_head = nn.Linear(dim, n_glosses + 1)

    def forward(self, keypoints, lengths):
        B, T, J, _ = keypoints.shape
        x = self.embed(keypoints)
        x = self.spatial(x.reshape(B * T, J, -1)).view(B, T, J, -1)
        frames = self.pool(x)
        pad = torch.arange(T, device=keypoints.device)[None, :] >= lengths[:, None]
        h = self.temporal(frames, src_key_padding_mask=pad)
        return self.ctc_head(h).log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = PoseSLR().eval()
    keypoints = torch.rand(2, 18, 18, 3)
    lengths = torch.tensor([18, 13])
    keypoints[1, 13:] = 0.0
    return model, (keypoints, lengths)
