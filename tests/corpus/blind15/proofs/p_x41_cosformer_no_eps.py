from lib import *

NAME = "x41_cosformer_no_eps"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[('z = 1.0 / torch.einsum("bhnd,bhd->bhn", q_, k_.sum(dim=2))', 'z = 1.0 / torch.einsum("bhnd,bhd->bhn", q_, k_.sum(dim=2)).clamp_min(self.eps)')],
        checks={
            "padding": (perturb(0, lambda a, k: a[1] == 0, 1, 150), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1] == 1), 1, 150), samp(0)),
        },
        ref=refs(solo(1, n=16, pooled=True), solo(2, n=9, pooled=True)),
        note="the buggy logits of the padded sentences are NaN; fixed, each sentence alone gives the same logits",
        label=dict(expected=["nan"], also_ok_codes=[], line_sub='z = 1.0 / torch.einsum("bhnd,bhd->bhn", q_, k_.sum(dim=2))',
                   also_subs=[], consequence_codes=[],
                   why="The padded positions' query features are zeroed (ReLU feature times the mask), so their normalizer q_.sum_n k_n is exactly 0 and 1/0 = inf; 0 * inf in the output einsum is NaN. The NaN rows of the padding then reach the real tokens through the next layer's keys (NaN * 0 stays NaN) and the masked mean pooling, so the class logits of every padded sentence are NaN. cosFormer clamps the denominator with eps (the module even stores one)."),
    )
