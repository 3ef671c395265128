from lib import *

NAME = "w48_hf_gptneox_reward"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 1, 64), samp(0))},
        ref=refs(solo_cut(1, {0: 7}), solo_cut(2, {0: 4}), solo_cut(0, {0: 10})),
        note="ref = each sequence cut to its tokens and scored alone (the pad mask is derived from the ids)",
        label=dict(line_sub="seq_end = seq_end % input_ids.shape[-1]",
                   why="For right padding the last real token sits just before the first pad token; argmax of (ids == pad) finds it, and the modulo maps rows without padding (argmax 0 -> -1) to the last position, exactly like HF's sequence-classification heads. The attention mask is 1 = real; the causal backbone never lets that token see the padding after it."),
    )
