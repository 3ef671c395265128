import torch
from _util import *
N = "c49_speech_encoder_stack"
R = Report(N, "bug")
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 6, scale=5.0)
y, _, _ = run(N, mut)
R.harm("sample 1 real frames move when its padded frames change", md(base[1, :6], y[1, :6]))
m, a, _ = fresh(N)
with torch.no_grad():
    solo = m(a[0][1:2, :6], torch.tensor([6]))
R.harm("padded sample 1 differs from its 6 real frames run unpadded", md(base[1, :6], solo[0]))
# with the mask passed to the last block the leak disappears
mod = load(N)
m3 = mod.build()[0]
orig = m3.adapter.forward
keep = torch.arange(10)[None] < a[1][:, None]
m3.adapter.forward = lambda x, keep_=None: orig(x, keep)
with torch.no_grad():
    z0 = m3(*a)
    a2 = [t.clone() for t in a]; mut(a2, {})
    z1 = m3(*a2)
R.inv("same model with the mask given to the last block: real frames unchanged", md(z0[1, :6], z1[1, :6]))
R.done()
