from lib import *

NAME = "y35_clap_audio_text"


def result():
    return prove(
        NAME, "correct",
        checks={"padding_audio": (perturb(0, lambda a, k: ~a[1]), whole()),
                "padding_text": (keep, whole(), pad_row(lambda m: m.text.tok, 0)),
                "batch": (perturb(0, sample(0, 0)), lambda o, a, k: o[1:, 1:])},
        label=dict(line_sub="return self.logit_scale.exp() * a @ t.t()",
                   why="The output is the audio-by-text similarity matrix of the batch, so row i depending on every caption is the intended in-batch contrast; within each encoder padded frames and tokens are masked as keys and excluded from the mean, so entry (i, j) depends only on clip i and caption j."),
    )
