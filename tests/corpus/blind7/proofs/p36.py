import torch
import torch.nn.functional as F
from _util import *
N = "c36_vit_registers"
R = Report(N, "correct")
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
m, a, _ = fresh(N)
base = call(m, a)
R.inv("two eval passes identical", md(base, call(m, a)), 0.0)
with torch.no_grad():
    solo = m(a[0][1:2])[0]
R.inv("sample 1 in batch == sample 1 alone", md(base[1], solo[0]), 1e-6)
# reference: registers are extra tokens without position embedding; cls read at index 0; patch tokens after registers
with torch.no_grad():
    img = a[0]
    B = 2
    p = m.patch_embed(img).flatten(2).transpose(1, 2) + m.pos_embed[:, 1:]
    c = m.cls_token.expand(B, -1, -1) + m.pos_embed[:, :1]
    x = torch.cat([c, p, m.reg_tokens.expand(B, -1, -1)], 1)
    for blk in m.blocks:
        x = blk(x)
    x = m.norm(x)
    ref_cls = m.head(x[:, 0]); ref_patch = x[:, 1:17]
    got_cls, got_patch = m(img)
R.inv("cls logits == reference with registers placed at the end (order-free)", md(got_cls, ref_cls), 1e-6)
R.inv("patch tokens == reference patch tokens", md(got_patch, ref_patch), 1e-6)
R.done()
