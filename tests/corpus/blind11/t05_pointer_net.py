"""Pointer network for routing problems (Bello et al. style): LSTM encoder, glimpse, pointer over nodes."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    """Bahdanau attention v^T tanh(W_ref e + W_q q) over the encoded nodes."""

    def __init__(self, hidden, use_tanh=False, C=10.0):
        super().__init__()
        self.W_query = nn.Linear(hidden, hidden)
        self.W_ref = nn.Conv1d(hidden, hidden, 1)
        self.v = nn.Parameter(torch.empty(hidden).uniform_(-hidden ** -0.5, hidden ** -0.5))
        self.use_tanh, self.C = use_tanh, C

    def forward(self, query, ref):
        ref = self.W_ref(ref.permute(0, 2, 1))  # (B, H, N)
        q = self.W_query(query).unsqueeze(2)
        u = torch.einsum("h,bhn->bn", self.v, torch.tanh(q + ref))
        if self.use_tanh:
            u = self.C * torch.tanh(u)
        return ref, u


class PointerNetwork(nn.Module):
    def __init__(self, hidden=32, n_glimpses=1):
        super().__init__()
        self.embedding = nn.Linear(2, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.decoder = nn.LSTMCell(hidden, hidden)
        self.glimpse = Attention(hidden)
        self.pointer = Attention(hidden, use_tanh=True)
        self.decoder_start = nn.Parameter(torch.zeros(hidden))
        self.n_glimpses = n_glimpses

    def forward(self, coords, node_mask):
        """coords: (B, N, 2); node_mask: (B, N) bool, True for real nodes (instances are right padded)."""
        emb = self.embedding(coords)
        enc, (h, c) = self.encoder(emb)
        lengths = node_mask.sum(1)
        idx = (lengths - 1).clamp(min=0)
        h = enc[torch.arange(enc.size(0)), idx]
        c = torch.zeros_like(h)
        h, c = self.decoder(self.decoder_start.expand_as(h), (h, c))
        query = h
        for _ in range(self.n_glimpses):
            ref, logits = self.glimpse(query, enc)
            logits = logits.masked_fill(node_mask, -1e9)
            query = torch.einsum("bhn,bn->bh", ref, logits.softmax(dim=-1))
        _, logits = self.pointer(query, enc)
        logits = logits.masked_fill(~node_mask, -1e9)
        return query, logits.log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = PointerNetwork().eval()
    lens = [10, 7, 5]
    coords = torch.rand(3, 10, 2)
    node_mask = torch.arange(10)[None, :] < torch.tensor(lens)[:, None]
    coords = coords.masked_fill(~node_mask[..., None], 0.0)
    return model, (coords, node_mask)
