import torch
from _util import *
N = "c48_ctc_subsampled_encoder"
R = Report(N, "correct")
mod = load(N)
m, a, _ = fresh(N)
feats, lens = a
with torch.no_grad():
    lp, utt, olens = m(feats, lens)
R.inv("output lengths = conv formula (7 -> 4, 12 -> 6)", float((olens != torch.tensor([6, 4])).sum()), 0.0)
def mut(a, k): perturb_tail(a[0][1:2], 1, 7, scale=10.0)
m2, a2, _ = fresh(N); mut(a2, {})
with torch.no_grad():
    lp2, utt2, _ = m2(*a2)
R.inv("sample 1 real CTC frames unchanged when padded input frames change", md(lp[1, :4], lp2[1, :4]))
R.inv("sample 1 utterance logits unchanged when padded input frames change", md(utt[1], utt2[1]))
with torch.no_grad():
    lps, utts, _ = m(feats[1:2, :7], torch.tensor([7]))
R.inv("padded sample 1 == same 7 frames unpadded (CTC frames)", md(lp[1, :4], lps[0]), 1e-6)
R.inv("padded sample 1 == same 7 frames unpadded (utterance logits)", md(utt[1], utts[0]), 1e-6)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
R.done()
