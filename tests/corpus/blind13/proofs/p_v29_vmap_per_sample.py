from lib import *

NAME = "v29_vmap_per_sample"

def result():
    pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        label=dict(line_sub="pooled = vmap(self.attend_one)(x, lengths)",
                   why="vmap runs attend_one on each sample separately (no cross-sample op inside); within a sample the keys beyond its length get -inf before the softmax and the pooling weights of padded steps are -inf too, so neither padding nor other samples reach the output. softmax(0) in the pooling runs over the time axis of one sample."),
    )
