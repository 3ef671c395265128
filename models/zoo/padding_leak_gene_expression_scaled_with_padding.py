"""A single-cell encoder that scales each cell's expression by its largest value over every slot, padded ones included.

A cell is padded gene ids (0) beside an expression value per slot; the padded slots' values are
left as the sampler wrote them. The <cls> token is the embedding's own row `cls_id`, read by
index: the pad id's row is read by no one but the padded ids, so the padding witness redraws
it, and changes the values at the padded slots too (they are what a padded position holds).
The maximum is taken over the padded slots as well, so every real gene's scaled value moves
with them. Fix: `values.masked_fill(pad, float("-inf")).amax(...)`. Twin of
ok_gene_expression_scaled_real_genes.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("padding-leak",)


class CellEncoder(nn.Module):
    def __init__(self, genes: int = 40, d_model: int = 16):
        super().__init__()
        self.cls_id = genes + 1
        self.gene = nn.Embedding(genes + 2, d_model, padding_idx=0)
        self.value = nn.Linear(1, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, 1)

    def forward(self, genes: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        pad = genes.eq(0)
        largest = values.amax(dim=1, keepdim=True)  # BUG: padding-leak
        x = self.gene(genes) + self.value((values / largest).unsqueeze(-1))
        x = torch.cat([self.gene.weight[self.cls_id].expand(genes.shape[0], 1, -1), x], dim=1)
        hidden = torch.cat([pad.new_zeros(genes.shape[0], 1), pad], dim=1)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = (q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])).masked_fill(hidden[:, None, :], float("-inf"))
        return self.head(x + scores.softmax(dim=-1) @ v).squeeze(-1)


def build():
    torch.manual_seed(0)
    genes = torch.randint(1, 41, (2, 8))
    genes[0, 5:] = 0
    return CellEncoder().eval(), (genes, torch.rand(2, 8) + 0.1)
