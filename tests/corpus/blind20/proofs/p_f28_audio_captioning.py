from lib import *

NAME = "f28_audio_captioning"


def padded_frames(a, k):
    return torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("if self.spec_augment:", "if self.spec_augment and self.training:")],
        checks={
            "causal": (perturb(2, after(2, 4), 3, 300), upto(4)),
            "padding": (perturb(0, padded_frames), whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 3, 300)), samp(0)),
        },
        label=dict(expected=["nondeterministic"], line_sub="if self.spec_augment:",
                   also_subs=["mel = self.augment(mel, mel_lengths)", "t0 = int(torch.randint(0, max(1, int(lengths[b]) - w), ()))"], also_ok_codes=["dropout-eval"], consequence_codes=[],
                   why="SpecAugment is a training-time augmentation, but it is applied whenever the spec_augment flag is set, also after model.eval(). Random time and frequency bands of the input are zeroed on every call, so the caption logits differ from one inference to the next."),
    )
