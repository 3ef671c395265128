import torch
from lib import *
N = "r78_prefix_lm"
m, a, kw = build(N)
tt, am = a[1], a[2]
mod = load(N)
M = mod.PrefixLM.build_seq2seq_mask(tt, am)
# expected: key j visible to query i iff key real and (j in source or (j in target and j <= i)); source queries see only source
exp = torch.zeros(2, 10, 10, dtype=torch.long)
for b in range(2):
    for i in range(10):
        for j in range(10):
            if am[b, j] == 0:
                continue
            if tt[b, j] == 0:
                exp[b, i, j] = 1
            elif tt[b, i] == 1 and j <= i:
                exp[b, i, j] = 1
mask_ok = bool(torch.equal(M, exp))
base = run(N)
worst_future = 0.0
for b, s in [(0, 4), (1, 6)]:
    for t in range(s, 9):
        def e(m_, a_, kw_, t=t):
            x = a_[0].clone(); x[:, t + 1:] = (x[:, t + 1:] + 7) % 63 + 1; x = x * am; a_[0] = x; return a_, kw_
        o = run(N, e)
        worst_future = max(worst_future, maxdiff(base[b, :t + 1], o[b, :t + 1]))
def bidir(m_, a_, kw_):
    x = a_[0].clone(); x[0, 3] = (x[0, 3] + 5) % 63 + 1; a_[0] = x; return a_, kw_
src_bidirectional = maxdiff(base[0, :3], run(N, bidir)[0, :3])
pad = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
assert mask_ok and worst_future < 1e-5 and src_bidirectional > 1e-3 and pad < 1e-5
report(name=N, verdict="correct", mask_matches_spec=mask_ok, future_target_perturb_diff=worst_future, later_source_token_effect_on_earlier_source=src_bidirectional, pad_perturb_diff=pad,
       note="3D (B,T,T) prefix-LM mask extended with [:, None] and (1-m)*finfo.min: source bidirectional, target causal")
