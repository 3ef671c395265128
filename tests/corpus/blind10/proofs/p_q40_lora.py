from lib import *

NAME = "q40_lora"


def ref(mod):
    torch.manual_seed(7)
    a = mod.SelfAttention().eval()
    x = torch.randn(2, 6, 32)
    pad = torch.zeros(2, 6, dtype=torch.bool); pad[1, 4:] = True
    with torch.no_grad():
        sp = lambda t: t.view(2, 6, 4, 8).transpose(1, 2)
        r = F.scaled_dot_product_attention(sp(a.q(x)), sp(a.k(x)), sp(a.v(x)), attn_mask=~pad[:, None, None, :])
        return maxdiff(a(x, pad), a.o(r.transpose(1, 2).reshape(2, 6, 32)))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("scores = torch.matmul(q, k.transpose(-1, -2)) / self.head_dim",
              "scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)")],
        checks={
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] != 0), 1, 40), samp(0)),
        },
        ref=ref,
        note="scores divided by head_dim (8) instead of sqrt(head_dim); ref = SDPA",
        label=dict(expected=["scale-factor"], line_sub="scores = torch.matmul(q, k.transpose(-1, -2)) / self.head_dim",
                   why="Attention logits are scaled by 1/d_k instead of 1/sqrt(d_k), flattening the softmax."),
    )
