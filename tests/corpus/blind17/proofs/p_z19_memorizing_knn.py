from lib import *

NAME = "z19_memorizing_knn"


def knn_ref(m, x, mem_k, mem_v):
    """independent reference: memory top-k plus a causal window that includes the diagonal"""
    B, T, D = x.shape
    q, k, v = m.to_qkv(x).view(B, T, 3, m.heads, m.dh).permute(2, 0, 3, 1, 4)
    s_mem = q @ mem_k.transpose(-1, -2) / math.sqrt(m.dh)
    top, idx = s_mem.topk(m.topk, dim=-1)
    s_loc = (q @ k.transpose(-1, -2) / math.sqrt(m.dh)).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    w = torch.cat([top, s_loc], -1).softmax(-1)
    out = torch.zeros_like(q)
    for t in range(T):
        vm = torch.gather(mem_v, 2, idx[:, :, t].unsqueeze(-1).expand(-1, -1, -1, m.dh))
        out[:, :, t] = (w[:, :, t, : m.topk, None] * vm).sum(2) + (w[:, :, t, m.topk:, None] * v).sum(2)
    return m.to_out(out.transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu()",
              "future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)")],
        checks={"causal": (perturb(0, after(0, 7), 0, 256), upto(7)),
                "batch": (perturb(0, sample(0, 1), 0, 256), samp(0))},
        ref=module_ref(lambda m: m.knn_attn, knn_ref),
        label=dict(expected=["causal-diagonal"], line_sub="future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu()",
                   why="triu() with the default diagonal=0 also masks the diagonal, so in the kNN layer a token cannot attend to itself among the local keys (the first token sees only retrieved memories)."),
    )
