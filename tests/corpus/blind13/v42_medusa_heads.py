"""Medusa: extra decoding heads on top of a causal LM for speculative decoding.

Head k (k = 1..K) predicts the token k + 1 steps ahead from the same last hidden state, through
a residual SiLU block and the shared LM head. All predictions come back stacked with the base
head first: (K + 1, B, T, V).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.linear = nn.Linear(d, d)
        nn.init.zeros_(self.linear.weight)

    def forward(self, x):
        return x + F.silu(self.linear(x))


class BaseLM(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def hidden(self, ids):
        T = ids.size(1)
        x = self.tok(ids) + self.pos(torch.arange(T, device=ids.device))
        causal = nn.Transformer.generate_square_subsequent_mask(T, device=ids.device)
        return self.norm(self.blocks(x, mask=causal, is_causal=True))


class MedusaLM(nn.Module):
    def __init__(self, n_medusa=3, d=32):
        super().__init__()
        self.base = BaseLM(d=d)
        self.medusa = nn.ModuleList(nn.Sequential(ResBlock(d), nn.Linear(d, d)) for _ in range(n_medusa))

    def forward(self, input_ids):
        h = self.base.hidden(input_ids)
        logits = [self.base.lm_head(h)]
        for head in self.medusa:
            logits.append(self.base.lm_head(head(h)))
        return torch.stack(logits, dim=0)


def build():
    torch.manual_seed(0)
    model = MedusaLM().eval()
    with torch.no_grad():
        for head in model.medusa:
            head[0].linear.weight.normal_(0, 0.2)
    return model, (torch.randint(0, 64, (2, 10)),)
