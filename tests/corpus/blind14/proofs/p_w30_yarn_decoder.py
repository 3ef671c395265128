from lib import *

NAME = "w30_yarn_decoder"


def rms_ref(m, x):
    return F.rms_norm(x, (x.size(-1),), m.weight, m.eps)


def attn_ref(att, x, cos, sin):
    B, T, _ = x.shape
    sp = lambda t: t.view(B, T, -1, att.hd).transpose(1, 2)
    rot = lambda t: t * cos + torch.cat((-t[..., att.hd // 2:], t[..., : att.hd // 2]), -1) * sin
    q, k, v = rot(sp(att.q_proj(x))), rot(sp(att.k_proj(x))), sp(att.v_proj(x))
    o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    return att.o_proj(o.transpose(1, 2).reshape(B, T, -1))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 8), 0, 100), upto(8)),
            "batch": (perturb(0, sample(0, 1), 0, 100), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.norm, rms_ref), module_ref(lambda m: m.layers[0].self_attn, attn_ref)),
        note="ref = the hand RMSNorm against F.rms_norm and the attention against SDPA(enable_gqa=True)",
        label=dict(line_sub="return self.o_proj(out.transpose(1, 2).contiguous().view(B, T, -1))",
                   why="RMSNorm averages the squares over the feature axis; the YaRN cos/sin table is indexed by position_ids and unsqueezed on the head axis of (B, H, T, hd); multiplying cos and sin by mscale is YaRN's attention temperature (it scales q.k by mscale^2 on purpose, on top of SDPA's 1/sqrt(hd)); repeat_kv expands the KV heads group-wise as enable_gqa does; heads are merged after transpose(1, 2)."),
    )
