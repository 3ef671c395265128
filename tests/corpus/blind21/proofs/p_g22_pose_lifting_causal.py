from lib import *

NAME = "g22_pose_lifting_causal"


def pos_ref(mod):
    """the term added after the keypoint embedding must be frame_pos[f] + joint_pos[j]"""
    model, args, kw = build(mod)
    got = {}
    h1 = model.embed.register_forward_hook(lambda m, i, o: got.__setitem__("emb", o))
    h2 = model.blocks[0].register_forward_pre_hook(lambda m, i: got.__setitem__("blk", i[0]))
    run(model, args, kw)
    h1.remove(); h2.remove()
    added = got["blk"] - got["emb"]                                  # (B, F, J, C)
    B, F_, J, C = added.shape
    ref = torch.zeros(B, F_, J, C)
    for f in range(F_):
        for j in range(J):
            ref[:, f, j] = model.frame_pos[f] + model.joint_pos[j]
    return maxdiff(added, ref)


def joint_attn_ref(sub, x):
    """per frame, independent SDPA over the joints written batch-first with explicit heads"""
    N, L, C = x.shape
    qkv = sub.qkv(x)
    q, k, v = qkv[..., :C], qkv[..., C:2 * C], qkv[..., 2 * C:]
    sp = lambda t: t.reshape(N, L, sub.heads, -1).permute(0, 2, 1, 3)
    o = F.scaled_dot_product_attention(sp(q), sp(k), sp(v), is_causal=sub.causal)
    return sub.proj(o.permute(0, 2, 1, 3).reshape(N, L, C))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 4)), upto(4)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(pos_ref, module_ref(lambda m: m.blocks[0].joint_attn, joint_attn_ref),
                 module_ref(lambda m: m.blocks[1].frame_attn, joint_attn_ref)),
        note="frames == joints == 9; ref = positional terms per (frame, joint) and re-implemented axis attentions",
        label=dict(line_sub="x = x + self.frame_pos[:F_].unsqueeze(1) + self.joint_pos",
                   why="x is (B, F, J, C) with F == J == 9: frame_pos[:F].unsqueeze(1) is (F, 1, C) and varies along the frame axis, joint_pos is (J, C) and varies along the joint axis; the frame attention runs on (B*J, F, C) with is_causal=True, so each frame's pose uses only frames up to it."),
    )
