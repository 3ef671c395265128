from lib import *

NAME = "v41_rnnt_joint"

LABEL_PAD = torch.tensor([[False] * 5, [False, False, False, True, True]])


def result():
    frames_pad = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
    real_frames = lambda o, a, k: o[torch.arange(o.size(1))[None, :] < (a[1] // 2)[:, None]]
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, frames_pad), real_frames),
            "label_padding": (perturb(2, lambda a, k: LABEL_PAD, 1, 20), lambda o, a, k: o[:, :, :4]),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 1, 20)), samp(0)),
        },
        note="padding = mel frames past each length; label_padding = padded labels of the second utterance (lattice columns u <= 3 depend on labels 0..2)",
        label=dict(line_sub="joint = torch.tanh(self.enc_proj(enc)[:, :, None] + self.pred_proj(pred)[:, None])",
                   why="The joint broadcasts encoder frames (B, T, 1, d) against prediction states (B, 1, U+1, d) into the (B, T, U+1) lattice by design; frames past the length are masked as keys in the encoder, the prediction LSTM reads labels left to right, so padded frames and labels only reach their own lattice cells."),
    )
