"""Label attention model (LAAT, Vu et al., 2020) for multi-label ICD coding of discharge notes.

Every code gets its own attention distribution over the note's tokens:
    Z = tanh(W H^T),  A = softmax(U Z) over tokens,  V = A H,  y_l = sigmoid(<w_l, v_l> + b_l).
Notes are padded to the longest in the batch; `note_mask` is 1 on real tokens.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelAttention(nn.Module):
    def __init__(self, d, d_a, n_labels):
        super().__init__()
        self.W = nn.Linear(d, d_a, bias=False)
        self.U = nn.Linear(d_a, n_labels, bias=False)
        self.out_w = nn.Parameter(torch.randn(n_labels, d) * 0.05)
        self.out_b = nn.Parameter(torch.zeros(n_labels))

    def forward(self, H, note_mask):  # H: (B, T, d)
        Z = torch.tanh(self.W(H))  # (B, T, d_a)
        scores = self.U(Z).transpose(1, 2)  # (B, L, T)
        scores = scores.masked_fill(note_mask.unsqueeze(1) == 0, float("-inf"))
        A = F.softmax(scores, dim=2)
        V = torch.bmm(A, H)  # (B, L, d)
        return (V * self.out_w).sum(-1) + self.out_b


class LAAT(nn.Module):
    def __init__(self, vocab=400, d=32, heads=4, n_labels=25, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.encoder = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.2, batch_first=True)
        self.label_attn = LabelAttention(d, 16, n_labels)

    def forward(self, note, note_mask):
        pos = torch.arange(note.size(1), device=note.device)
        H = self.encoder(self.emb(note) + self.pos(pos), src_key_padding_mask=note_mask == 0)
        return self.label_attn(H, note_mask)


def build():
    torch.manual_seed(0)
    model = LAAT().eval()
    note = torch.randint(1, 400, (3, 24))
    note_mask = torch.ones(3, 24, dtype=torch.long)
    note_mask[1, 15:] = 0
    note_mask[2, 9:] = 0
    return model, (note, note_mask)
