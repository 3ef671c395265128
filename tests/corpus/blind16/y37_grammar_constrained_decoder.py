"""Grammar-constrained decoding for a tiny JSON-ish language model.

A pushdown automaton over the already-generated prefix gives, for every position, the set of
tokens the grammar allows next; disallowed tokens get -inf before the log-softmax, so the model
scores only grammatical continuations. At least one token is always allowed (EOS when nothing
else is).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = ["<eos>", "{", "}", "[", "]", ":", ",", "str", "num", "true"]
OPEN = {1: 2, 3: 4}


def allowed_next(prefix_ids):
    """Boolean (T, V): row t = tokens allowed after prefix[: t + 1]."""
    V = len(VOCAB)
    rows, stack = [], []
    for tok in prefix_ids.tolist():
        if tok in OPEN:
            stack.append(OPEN[tok])
        elif stack and tok == stack[-1]:
            stack.pop()
        row = torch.zeros(V, dtype=torch.bool)
        row[[1, 3, 7, 8, 9, 5, 6]] = True
        if stack:
            row[stack[-1]] = True
        else:
            row[0] = True
        rows.append(row)
    return torch.stack(rows)


class ConstrainedLM(nn.Module):
    def __init__(self, dim=32, heads=4, layers=2, max_len=32):
        super().__init__()
        V = len(VOCAB)
        self.embed = nn.Embedding(V, dim)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True, norm_first=True)
        self.decoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.lm_head = nn.Linear(dim, V)

    def forward(self, ids):
        B, T = ids.shape
        x = self.embed(ids) + self.pos(torch.arange(T, device=ids.device))
        causal = torch.full((T, T), float("-inf"), device=ids.device).triu(1)
        h = self.decoder(x, mask=causal)
        logits = self.lm_head(h)
        allowed = torch.stack([allowed_next(seq) for seq in ids]).to(ids.device)
        logits = logits.masked_fill(~allowed, float("-inf"))
        return logits.log_softmax(dim=-1).clamp(min=-1e4)


def build():
    torch.manual_seed(0)
    model = ConstrainedLM().eval()
    ids = torch.tensor([[1, 7, 5, 3, 8, 6, 8, 4, 6, 7, 5, 9, 2, 0, 0, 0],
                        [3, 1, 7, 5, 8, 2, 6, 3, 9, 4, 4, 0, 0, 0, 0, 0],
                        [7, 1, 7, 5, 1, 7, 5, 3, 8, 4, 2, 6, 7, 5, 8, 2]])
    return model, (ids,)
