from lib import *

NAME = "u21_hyena_fft"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("fft_size = seqlen\n", "fft_size = 2 * seqlen\n")],
        checks={
            "causal": (perturb(0, after(0, 4), 0, 40), upto(4)),
            "batch": (perturb(0, sample(0, 1), 0, 40), samp(0)),
        },
        note="an FFT of size L computes a circular convolution: y[t] = sum_s k[s] u[(t - s) mod L], so early outputs read the end of the sequence",
        label=dict(expected=["causal-leak"], line_sub="fft_size = seqlen\n",
                   also_subs=['y = torch.fft.irfft(u_f * k_f, n=fft_size, norm="forward")[..., :seqlen]'],
                   why="With a transform of size L the product of spectra is a circular convolution, so y[t] includes k[s] u[t - s + L] for s > t: the future wraps around into the past. Zero-padding to 2L makes it linear and causal."),
    )
