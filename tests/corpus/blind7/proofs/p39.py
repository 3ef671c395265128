import torch
from _util import *
N = "c39_encoder_attn_dropout"
R = Report(N, "bug")
m, a, _ = fresh(N)
assert not m.training
torch.manual_seed(1); y1 = call(m, a)
torch.manual_seed(2); y2 = call(m, a)
R.harm("two eval passes differ", md(y1, y2))
import torch.nn.functional as F
mod = load(N)
m3 = mod.build()[0]
orig = F.dropout
mod.F.dropout = lambda x, p=0.5, training=False, inplace=False: orig(x, p, training, inplace)
with torch.no_grad():
    z1 = m3(*a); z2 = m3(*a)
mod.F.dropout = orig
R.inv("with dropout honouring eval the passes agree", md(z1, z2), 0.0)
R.harm("eval output differs from dropout-free output", md(y1, z1))
R.done()
