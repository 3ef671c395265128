import math, torch
from lib import *
N = "r39_llama_reference"
c = causal_probe(N, vocab=64)
sp = maxdiff(run(N), run(N, lambda m_, a_, kw_: (a_, {"start_pos": 7})))
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
att = m.layers[0].attention
x = torch.randn(2, 12, 32)
fc = m.freqs_cis[:12]
with torch.no_grad():
    y = att(x, fc, torch.triu(torch.full((12, 12), float("-inf")), 1))
    D = 8
    q = att.wq(x).view(2, 12, 4, D); k = att.wk(x).view(2, 12, 2, D); v = att.wv(x).view(2, 12, 2, D)
    def rot(z):
        out = z.clone()
        for t in range(12):
            for i in range(D // 2):
                th = t * (1.0 / (10000.0 ** (2 * i / D)))
                a0, a1 = z[:, t, :, 2 * i], z[:, t, :, 2 * i + 1]
                out[:, t, :, 2 * i] = a0 * math.cos(th) - a1 * math.sin(th)
                out[:, t, :, 2 * i + 1] = a0 * math.sin(th) + a1 * math.cos(th)
        return out
    q, k = rot(q), rot(k)
    outs = []
    for h in range(4):
        kh, vh = k[:, :, h // 2], v[:, :, h // 2]
        s = q[:, :, h] @ kh.transpose(1, 2) / math.sqrt(D)
        s = s.masked_fill(torch.ones(12, 12).triu(1).bool(), float("-inf"))
        outs.append(s.softmax(-1) @ vh)
    r = att.wo(torch.cat(outs, -1))
ref = maxdiff(y, r)
assert max(c, sp, det, b, ref) < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, rope_start_pos_shift_diff=sp, eval_repeat_diff=det, batch_diff=b, pairwise_rotation_loop_ref_diff=ref)
