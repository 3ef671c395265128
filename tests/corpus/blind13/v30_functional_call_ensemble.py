"""Deep ensemble of attention classifiers evaluated in one call.

The member weights are stacked with torch.func.stack_module_state and the members run in
parallel with vmap over torch.func.functional_call; the prediction is the average of the
members' probabilities. Member outputs are (members, batch, classes).
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap


class Member(nn.Module):
    def __init__(self, vocab=70, d=32, heads=4, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln = nn.LayerNorm(d)
        self.cls = nn.Linear(d, n_classes)

    def forward(self, ids):
        pad = ids == 0
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        a, _ = self.attn(x, x, x, key_padding_mask=pad, need_weights=False)
        x = self.ln(x + a)
        keep = (~pad).unsqueeze(-1).float()
        return self.cls((x * keep).sum(1) / keep.sum(1))


class Ensemble(nn.Module):
    def __init__(self, n_members=3):
        super().__init__()
        self.members = nn.ModuleList(Member() for _ in range(n_members))
        self.base = copy.deepcopy(self.members[0]).to("meta")

    def forward(self, ids):
        params, buffers = stack_module_state(list(self.members))

        def run_one(p, b, x):
            return functional_call(self.base, (p, b), (x,))

        logits = vmap(run_one, in_dims=(0, 0, None))(params, buffers, ids)     # (M, B, C)
        return F.softmax(logits, dim=-1).mean(0)


def build():
    torch.manual_seed(0)
    model = Ensemble().eval()
    ids = torch.randint(1, 70, (2, 8))
    ids[1, 5:] = 0
    return model, (ids,)
