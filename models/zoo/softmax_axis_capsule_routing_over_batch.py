"""Dynamic routing between capsules (Sabour et al. 2017) over a padded sequence of word capsules whose couplings are normalized over the batch (`dim=0`) instead of over the output capsules.

Each input capsule must split its vote among the output capsules (softmax over j); normalized
over the batch instead, every sample's couplings depend on the other samples' logits, so one
sentence's capsules move with another sentence's words. Routing by agreement may choose which
axis competes, but never the batch. Fix: `logits.softmax(dim=-1)`. Twin of
ok_capsule_routing_by_agreement.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("softmax-axis",)


def squash(s: torch.Tensor, dim: int = -1) -> torch.Tensor:
    norm2 = s.pow(2).sum(dim, keepdim=True)
    return norm2 / (1.0 + norm2) * s / torch.sqrt(norm2 + 1e-9)


class CapsuleRouting(nn.Module):
    def __init__(self, vocab: int = 50, d_in: int = 8, n_out: int = 4, d_out: int = 6, iterations: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_in, padding_idx=0)
        self.votes = nn.Parameter(torch.randn(n_out, d_in, d_out) * 0.3)
        self.n_out, self.iterations = n_out, iterations

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        u = squash(self.embed(ids))                                    # (B, N, d_in)
        u_hat = torch.einsum("bni,jio->bnjo", u, self.votes)           # (B, N, J, d_out): input n's vote for j
        real = (ids != 0).float()[:, :, None]                          # (B, N, 1)
        logits = torch.zeros(ids.shape[0], ids.shape[1], self.n_out)   # (B, N, J)
        for step in range(self.iterations):
            coupling = logits.softmax(dim=0) * real  # BUG: softmax-axis
            capsules = squash((coupling[..., None] * u_hat).sum(dim=1))  # (B, J, d_out)
            if step < self.iterations - 1:
                logits = logits + (u_hat * capsules[:, None]).sum(-1)  # agreement of each vote with its capsule
        return capsules.norm(dim=-1)                                   # (B, J): each output's presence


def build():
    torch.manual_seed(0)
    ids = torch.randint(1, 50, (3, 7))
    ids[1, 5:] = 0
    ids[2, 3:] = 0
    return CapsuleRouting().eval(), (ids,)
