from lib import *

NAME = "a05_eeg_channel_time_transformer"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(2),
        label=dict(line_sub='t = rearrange(s, "(b p) c d -> (b c) p d", b=B)',
                   why="The (b p) and (b c) foldings are unpacked with b=B, so spatial attention runs over electrodes within a patch and temporal attention over patches within an electrode, never across samples; channel and time embeddings broadcast along their own axes."),
    )
