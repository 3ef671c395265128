"""Universal Transformer with ACT halting over padded batches.

Padded positions start out halted (halting probability 1) so they never take part in the
weighted state, and are removed from the keys of the shared transition block. The loop runs
until every real position of the batch has halted; positions that halted earlier keep
their accumulated state because their update weight is 0 from then on.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Transition(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, x, keep):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.heads, -1).transpose(1, 3).unbind(2)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.ff(self.ln2(x))


class PaddedACT(nn.Module):
    def __init__(self, vocab=200, d=32, heads=4, max_hops=5, threshold=0.95, n_tags=6):
        super().__init__()
        self.max_hops, self.threshold = max_hops, threshold
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(64, d)
        self.hop = nn.Embedding(max_hops, d)
        self.transition = Transition(d, heads)
        self.halt = nn.Linear(d, 1)
        self.tagger = nn.Linear(d, n_tags)

    def forward(self, ids):
        keep = ids.ne(0)
        B, T = ids.shape
        state = self.embed(ids) + self.pos(torch.arange(T, device=ids.device))
        halted_p = (~keep).float()  # padding counts as already halted
        remainders = torch.zeros_like(halted_p)
        acc = torch.zeros_like(state)
        for hop in range(self.max_hops):
            running = (halted_p < 1.0).float()
            if running.sum() == 0:
                break
            state = state + self.hop.weight[hop]
            p = torch.sigmoid(self.halt(state)).squeeze(-1)
            if hop == self.max_hops - 1:
                p = torch.ones_like(p)  # force halting at the last hop
            total = halted_p + p * running
            new_halted = (total > self.threshold).float() * running
            still = (total <= self.threshold).float() * running
            remainders = remainders + new_halted * (1 - halted_p)
            w = p * still + new_halted * (1 - halted_p)
            halted_p = halted_p + p * still + new_halted * (1 - halted_p)
            state = self.transition(state, keep)
            acc = acc + w.unsqueeze(-1) * state
        return self.tagger(acc)


def build():
    torch.manual_seed(0)
    model = PaddedACT().eval()
    ids = torch.randint(1, 200, (3, 12))
    ids[0, 8:] = 0
    ids[2, 3:] = 0
    return model, (ids,)
