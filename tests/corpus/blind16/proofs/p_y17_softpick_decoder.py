from lib import *

NAME = "y17_softpick_decoder"


def ref_attn(m, x):
    B, T, D = x.shape
    split = lambda t: t.view(B, T, m.h, D // m.h).transpose(1, 2)
    q, k, v = split(m.wq(x)), split(m.wk(x)), split(m.wv(x))
    s = q @ k.transpose(-2, -1) / math.sqrt(D // m.h)
    tri = torch.ones(T, T, dtype=torch.bool).tril()
    e = torch.where(tri, torch.exp(s) - 1, torch.zeros_like(s))
    p = torch.relu(e) / (e.abs().sum(-1, keepdim=True) + 1e-6 * torch.exp(-s.masked_fill(~tri, -1e9).amax(-1, keepdim=True)))
    return m.wo((p @ v).transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("allowed = torch.ones(T, T, dtype=torch.bool, device=x.device).triu().logical_not()",
              "allowed = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()")],
        checks={"causal": (perturb(0, after(0, 8), 0, 72), upto(8)),
                "batch": (perturb(0, sample(0, 0), 0, 72), samp(1))},
        ref=module_ref(lambda m: m.attn[0], ref_attn),
        note="ref: first layer vs softpick over the lower triangle including the diagonal",
        label=dict(expected=["causal-diagonal"],
                   line_sub="allowed = torch.ones(T, T, dtype=torch.bool, device=x.device).triu().logical_not()",
                   also_ok_codes=["fully-masked-row"],
                   why="The allowed set is the complement of triu(), i.e. the strictly lower triangle, so no token attends to itself and the first token attends to nothing (its softpick row is all zero)."),
    )
