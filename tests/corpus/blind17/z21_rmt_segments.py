"""Recurrent Memory Transformer (Bulatov et al. 2022) for long-document classification.

The document is cut into segments. Memory tokens are prepended to every segment; their output
states become the memory of the next segment. The backbone is a stock nn.TransformerEncoder
in the (S, N, E) sequence-first layout.
"""
import torch
import torch.nn as nn


class RecurrentMemoryEncoder(nn.Module):
    def __init__(self, vocab=300, d_model=32, nhead=4, num_layers=2, num_mem=4, seg_len=8, n_classes=3):
        super().__init__()
        self.num_mem, self.seg_len = num_mem, seg_len
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(num_mem + seg_len, 1, d_model) * 0.02)
        self.memory = nn.Parameter(torch.randn(num_mem, d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 2 * d_model, dropout=0.0)
        self.backbone = nn.TransformerEncoder(layer, num_layers, enable_nested_tensor=False)
        self.classifier = nn.Linear(d_model, n_classes)

    def forward(self, input_ids):
        B, L = input_ids.shape
        mem = self.memory.unsqueeze(0).expand(B, -1, -1)  # (B, M, E)
        for start in range(0, L, self.seg_len):
            seg = self.embed(input_ids[:, start:start + self.seg_len]).transpose(0, 1)  # (S, B, E)
            x = torch.cat([mem.reshape(self.num_mem, B, -1), seg], dim=0) + self.pos
            h = self.backbone(x)
            mem = h[: self.num_mem].transpose(0, 1)
        return self.classifier(mem.mean(1))


def build():
    torch.manual_seed(0)
    model = RecurrentMemoryEncoder().eval()
    ids = torch.randint(1, 300, (3, 24))
    return model, (ids,)
