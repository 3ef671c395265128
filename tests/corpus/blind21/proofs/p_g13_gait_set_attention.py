from lib import *

NAME = "g13_gait_set_attention"


def frame_order(mod):
    """a silhouette set has no order: permuting the frames of every sequence leaves the embedding unchanged"""
    model, args, kw = build(mod)
    out = run(model, args, kw)
    perm = torch.tensor([2, 0, 3, 1])
    return maxdiff(out, run(model, (args[0][:, perm],), kw))


def attn_ref(sub, x):
    """independent: per (sample, part) multi-head attention over frames, batch-first"""
    B, T, P, C = x.shape
    a = sub.attn
    h = a.num_heads
    seq = x.permute(0, 2, 1, 3)                                        # (B, P, T, C)
    q, k, v = F.linear(seq, a.in_proj_weight, a.in_proj_bias).chunk(3, dim=-1)
    split = lambda t: t.reshape(B, P, T, h, C // h).transpose(2, 3)
    o = F.scaled_dot_product_attention(split(q), split(k), split(v))
    o = o.transpose(2, 3).reshape(B, P, T, C)
    o = sub.norm(seq + a.out_proj(o))
    return o.permute(0, 2, 1, 3)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0)),
                "batch3": (perturb(0, sample(0, 0)), lambda o, a, k: o[1:])},
        ref=refs(frame_order, module_ref(lambda m: m.frame_attn, attn_ref)),
        note="batch == frames == parts == heads == 4; ref = frame-order invariance and a batch-first re-implementation of the frame attention",
        label=dict(line_sub="seq = x.permute(1, 0, 2, 3).reshape(T, B * P, C)",
                   why="nn.MultiheadAttention is sequence-first by default, so (B, T, P, C) is permuted to (T, B*P, C): frames become the sequence and every (subject, part) pair an independent batch entry, and the inverse reshape/permute restores (B, T, P, C); batch, frames, parts and heads are all 4, but each axis is routed correctly and the max over dim 1 pools the frame set."),
    )
