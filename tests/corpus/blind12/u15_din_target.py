"""Deep Interest Network (Zhou et al., 2018) click-through model.

The user's behaviour history (item ids, right padded to L with id 0) is pooled with weights
from a local activation unit that compares each behaviour with the candidate ad. As in the
paper the activation weights are not normalised with a softmax ("to reserve the intensity of
user interests"): padded behaviours are simply given weight zero.
"""
import torch
import torch.nn as nn


class ActivationUnit(nn.Module):
    def __init__(self, dim, hidden=36):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(4 * dim, hidden), nn.PReLU(), nn.Linear(hidden, 1))

    def forward(self, behaviours, candidate):
        # behaviours: (B, L, d), candidate: (B, d)
        cand = candidate[:, None, :].expand_as(behaviours)
        feats = torch.cat([behaviours, cand, behaviours - cand, behaviours * cand], dim=-1)
        return self.mlp(feats).squeeze(-1)  # (B, L)


class DIN(nn.Module):
    def __init__(self, n_items=100, n_cates=10, dim=16):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim, padding_idx=0)
        self.cate_emb = nn.Embedding(n_cates, dim, padding_idx=0)
        self.att = ActivationUnit(2 * dim)
        self.mlp = nn.Sequential(nn.Linear(4 * dim, 32), nn.PReLU(), nn.Linear(32, 1))

    def embed(self, items, cates):
        return torch.cat([self.item_emb(items), self.cate_emb(cates)], dim=-1)

    def forward(self, hist_items, hist_cates, hist_mask, cand_item, cand_cate):
        behaviours = self.embed(hist_items, hist_cates)          # (B, L, 2d)
        candidate = self.embed(cand_item, cand_cate)             # (B, 2d)
        weights = self.att(behaviours, candidate) * hist_mask    # (B, L), no softmax by design
        interest = torch.einsum("bl,bld->bd", weights, behaviours)
        logit = self.mlp(torch.cat([interest, candidate], dim=-1))
        return torch.sigmoid(logit).squeeze(-1)


def build():
    torch.manual_seed(15)
    model = DIN().eval()
    lengths = torch.tensor([8, 5, 2])
    hist_mask = (torch.arange(8)[None] < lengths[:, None]).float()
    hist_items = torch.randint(1, 100, (3, 8)) * hist_mask.long()
    hist_cates = torch.randint(1, 10, (3, 8)) * hist_mask.long()
    cand_item = torch.randint(1, 100, (3,))
    cand_cate = torch.randint(1, 10, (3,))
    return model, (hist_items, hist_cates, hist_mask, cand_item, cand_cate)
