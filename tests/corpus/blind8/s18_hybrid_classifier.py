import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

PAD_ID = 3


class HybridClassifier(nn.Module):
    def __init__(self, vocab=45, d_model=32, nhead=4, hidden=24, n_classes=5):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model, padding_idx=PAD_ID)
        self.pos = nn.Embedding(20, d_model)
        self.attn_layer = nn.TransformerEncoderLayer(d_model, nhead, 64, dropout=0.1, batch_first=True, norm_first=True)
        self.gru = nn.GRU(d_model, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(4 * hidden, n_classes)

    def forward(self, tokens):
        pad = tokens.eq(PAD_ID)
        lengths = (~pad).sum(dim=1)
        x = self.tok(tokens) + self.pos(torch.arange(tokens.size(1), device=tokens.device))
        x = self.attn_layer(x, src_key_padding_mask=pad)
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, h_n = self.gru(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        last = torch.cat([h_n[0], h_n[1]], dim=-1)
        mean = out.sum(dim=1) / lengths.unsqueeze(1).to(out.dtype)
        return self.fc(torch.cat([last, mean], dim=-1))


def build():
    torch.manual_seed(0)
    model = HybridClassifier().eval()
    tokens = torch.tensor([[10, 25, 7, 31, 3, 3, 3], [4, 19, 40, 12, 8, 22, 16], [33, 5, 3, 3, 3, 3, 3]])
    return model, (tokens,)
