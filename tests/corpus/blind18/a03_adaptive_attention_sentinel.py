"""Knowing When to Look (Lu et al., 2017): adaptive attention with a visual sentinel.

At every decoding step the LSTM state scores the k spatial features plus one extra
"sentinel" vector; the softmax runs over the k+1 candidates, and the sentinel's weight
beta is the gate between visual context and the language model's own memory.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdaptiveAttention(nn.Module):
    def __init__(self, hid, att_dim):
        super().__init__()
        self.w_v = nn.Linear(hid, att_dim)
        self.w_g = nn.Linear(hid, att_dim)
        self.w_s = nn.Linear(hid, att_dim)
        self.w_h = nn.Linear(att_dim, 1)

    def forward(self, V, h, s):
        # V: (B, k, hid) spatial features; h, s: (B, hid)
        content_v = self.w_v(V) + self.w_g(h).unsqueeze(1)
        z = self.w_h(torch.tanh(content_v)).squeeze(-1)  # (B, k)
        z_s = self.w_h(torch.tanh(self.w_s(s) + self.w_g(h)))  # (B, 1)
        alpha_hat = F.softmax(torch.cat([z, z_s], dim=1), dim=1)  # (B, k+1)
        beta = alpha_hat[:, -1:]
        c = torch.bmm(alpha_hat[:, :-1].unsqueeze(1), V).squeeze(1)
        c_hat = beta * s + c
        return c_hat, alpha_hat


class AdaptiveCaptioner(nn.Module):
    def __init__(self, vocab=120, feat_dim=32, hid=40, att_dim=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, hid)
        self.v_proj = nn.Linear(feat_dim, hid)
        self.g_proj = nn.Linear(feat_dim, hid)
        self.cell = nn.LSTMCell(2 * hid, hid)
        self.x_gate = nn.Linear(2 * hid, hid)
        self.h_gate = nn.Linear(hid, hid)
        self.attention = AdaptiveAttention(hid, att_dim)
        self.mlp = nn.Linear(hid, vocab)

    def forward(self, feats, captions):
        B, T = captions.shape
        V = F.relu(self.v_proj(feats))
        v_g = F.relu(self.g_proj(feats.mean(1)))
        h = feats.new_zeros(B, self.cell.hidden_size)
        m = feats.new_zeros(B, self.cell.hidden_size)
        logits = []
        for t in range(T):
            x_t = torch.cat([self.embed(captions[:, t]), v_g], dim=-1)
            h_prev = h
            h, m = self.cell(x_t, (h, m))
            g_t = torch.sigmoid(self.x_gate(x_t) + self.h_gate(h_prev))
            s_t = g_t * torch.tanh(m)
            c_hat, _ = self.attention(V, h, s_t)
            logits.append(self.mlp(c_hat + h))
        return torch.stack(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = AdaptiveCaptioner().eval()
    feats = torch.randn(3, 16, 32)
    captions = torch.randint(0, 120, (3, 10))
    return model, (feats, captions)
