from lib import *

NAME = "f29_temporal_fusion_forecaster"


def vsn_ref(m, x):
    """per time step: weights over the variables sum to one; output = weighted sum of processed variables"""
    B, T, V = x.shape
    out = torch.zeros(B, T, m.var_grn[0].norm.normalized_shape[0])
    for b in range(B):
        for t in range(T):
            e = [m.var_emb[i](x[b, t, i:i + 1]) for i in range(V)]
            w = torch.softmax(m.select(torch.cat(e)), dim=0)
            out[b, t] = sum(w[i] * m.var_grn[i](e[i]) for i in range(V))
    return out


def imha_ref(m, x):
    """interpretable MHA: per head causal softmax, heads averaged, one shared value projection"""
    B, T, D = x.shape
    v = m.v(x)
    avg = torch.zeros(B, T, T)
    for h in range(m.heads):
        sl = slice(h * m.dh, (h + 1) * m.dh)
        s = m.q(x)[..., sl] @ m.k(x)[..., sl].transpose(1, 2) / math.sqrt(m.dh)
        s = s.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
        avg += torch.softmax(s, -1) / m.heads
    return m.out(avg @ v)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 2)), upto(2)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.vs_past, vsn_ref), module_ref(lambda m: m.attn, imha_ref)),
        note="ref = past variable selection and interpretable attention vs per-step / per-head loops",
        label=dict(line_sub="w = self.select(e.flatten(-2)).unsqueeze(-1).softmax(dim=-2)",
                   why="In TFT's variable selection the weights are a distribution over the input variables of each time step, and they weight exactly that axis (sum over dim -2) of the per-variable embeddings; the attention itself is a causal softmax over keys, with heads averaged by design of interpretable MHA."),
    )
