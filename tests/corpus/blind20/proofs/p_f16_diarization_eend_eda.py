from lib import *

NAME = "f16_diarization_eend_eda"


def pick(o):
    """speech activity [B, T, S] with the S existence probabilities appended to every frame"""
    act, exist = o
    return torch.cat([act, exist[:, None, : act.size(-1)].expand(-1, act.size(1), -1)], dim=-1)


def padded_frames(a, k):
    T = a[0].size(1)
    return torch.arange(T)[None, :] >= a[1][:, None]


def real_frames(o, a, k):
    return o[~padded_frames(a, k)]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, padded_frames), real_frames),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        pick=pick,
        ref=refs(solo(1, n=17, pick=pick), solo(2, n=10, pick=pick)),
        note="ref = recordings 1 and 2 diarized alone at their true length vs in the padded batch",
        label=dict(line_sub="packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)",
                   why="Padding is handled by lengths: the encoder gets a key padding mask built from them and the EDA LSTM reads a packed sequence, so its final state (and the attractors) come from real frames only; the frame shuffle of the paper is gated by self.training."),
    )
