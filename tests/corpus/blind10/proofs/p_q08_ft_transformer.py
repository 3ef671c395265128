from lib import *

NAME = "q08_ft_transformer"


def ref(mod):
    torch.manual_seed(2)
    a = mod.MHA(32, 4).eval()
    x = torch.randn(2, 6, 32)
    with torch.no_grad():
        o = a(x, x)
        m = torch.nn.MultiheadAttention(32, 4, batch_first=True)
        m.in_proj_weight.copy_(torch.cat([a.W_q.weight, a.W_k.weight, a.W_v.weight]))
        m.in_proj_bias.copy_(torch.cat([a.W_q.bias, a.W_k.bias, a.W_v.bias]))
        m.out_proj.weight.copy_(a.W_out.weight); m.out_proj.bias.copy_(a.W_out.bias)
        return maxdiff(o, m(x, x, x, need_weights=False)[0])


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 3)), samp(0))},
        ref=ref,
        note="FT-Transformer with CLS feature token; last layer queries only CLS; MHA matches nn.MultiheadAttention",
        label=dict(expected=[], line_sub="x_q = h[:, :1] if last else h  # only the CLS token is needed in the last layer",
                   why="Feature tokens + CLS; bmm attention with head split/merge via transpose, softmax over keys, 1/sqrt(d_head); last-layer CLS-only query is the reference optimization."),
    )
