import torch
from lib import *
from transformers.models.t5.modeling_t5 import T5Attention as HFT5Attention
N = "r77_relpos_decoder"
m, a, kw = build(N)
am = kw["attention_mask"]
c = causal_probe(N, vocab=64, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
tr = trunc_probe(N, 1, 9)
mod = load(N)
rp = torch.arange(40)[None, :] - torch.arange(40)[:, None]
bk = mod.T5Attention._relative_position_bucket(rp, bidirectional=False, num_buckets=16, max_distance=32)
hk = HFT5Attention._relative_position_bucket(rp, bidirectional=False, num_buckets=16, max_distance=32)
bucket_match = bool(torch.equal(bk, hk))
future_bucket_zero = bool((bk[rp > 0] == 0).all())
det = determinism(N)
assert max(c, p, tr, det) < 1e-4 and bucket_match
report(name=N, verdict="correct", causal_maxdiff=c, pad_perturb_diff=p, truncation_diff=tr, buckets_equal_hf_t5=bucket_match, eval_repeat_diff=det,
       note="unidirectional T5 buckets with causal+padding mask, scores scaled by 1/sqrt(d_kv)")
