from lib import *

NAME = "v20_static_shape_gpt"

def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("t.reshape(B, self.n_head, T, self.head_dim)", "t.view(B, T, self.n_head, self.head_dim).transpose(1, 2)")],
        checks={
            "causal": (perturb(0, after(0, 7), 0, 64), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="reshape of (B, T, C) straight to (B, H, T, d) without the transpose",
        label=dict(expected=["head-split"],
                   line_sub="q, k, v = map(lambda t: t.reshape(B, self.n_head, T, self.head_dim), qkv.split(self.d, dim=2))",
                   why="Reshaping (B, T, C) directly to (B, n_head, T, head_dim) cuts the row-major data so that head h holds tokens h*T/n_head .. and its 'time' axis walks through feature chunks of few tokens; row t of a head mixes several tokens, including later ones, so the causal mask no longer protects the future. The split needs view(B, T, n_head, head_dim).transpose(1, 2) (the merge below already assumes that layout)."),
    )
