from lib import *

NAME = "q33_linear_causal"


def loop_ref(mod):
    torch.manual_seed(5)
    a = mod.CausalLinearAttention().eval()
    x = torch.randn(2, 6, 32)
    with torch.no_grad():
        Q = mod.elu_feature_map(a.q(x).view(2, 6, 4, 8)); K = mod.elu_feature_map(a.k(x).view(2, 6, 4, 8))
        V = a.v(x).view(2, 6, 4, 8)
        outs = []
        for t in range(6):
            w = torch.einsum("bhd,bjhd->bhj", Q[:, t], K[:, : t + 1])
            w = w / (w.sum(-1, keepdim=True) + a.eps)
            outs.append(torch.einsum("bhj,bjhe->bhe", w, V[:, : t + 1]))
        ref = a.o(torch.stack(outs, 1).reshape(2, 6, 32))
        return maxdiff(a(x), ref)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 8), 0, 64), upto(8)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        ref=loop_ref,
        note="prefix sums over time are the causal linear attention; matches an explicit per-step loop",
        label=dict(expected=[], line_sub='KV = torch.einsum("bthd,bthe->bthde", K, V).cumsum(dim=1)  # S_t = sum_{j<=t} phi(k_j) v_j^T',
                   why="Cumulative sums along the time axis implement causal linear attention (each step uses keys j <= t); normalizer uses the same prefix sums."),
    )
