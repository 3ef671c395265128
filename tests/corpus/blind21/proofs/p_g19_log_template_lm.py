from lib import *

NAME = "g19_log_template_lm"
FIX = [("gap = torch.diff(ts, dim=1, append=ts[:, -1:])", "gap = torch.diff(ts, dim=1, prepend=ts[:, :1])")]


def later_times(t):
    """move every event after position t to a different time (keeping the order)"""
    def f(args, kw):
        ts = args[1].clone()
        g = torch.Generator().manual_seed(5)
        ts[:, t + 1:] = ts[:, t + 1:] + torch.rand(ts.size(0), 1, generator=g, dtype=ts.dtype) * 5000.0 + 100.0
        return (args[0], ts), kw
    return f


def result():
    return prove(
        NAME, "buggy", harm="causal", fix=FIX,
        checks={
            "causal": (chain(perturb(0, after(0, 7), 0, 50), later_times(7)), upto(7)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 50), perturb(1, sample(1, 1))), lambda o, a, k: o[[0, 2]]),
        },
        note="causal = the templates and timestamps of the events after position 7 change",
        label=dict(expected=["causal-leak"], line_sub="gap = torch.diff(ts, dim=1, append=ts[:, -1:])",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="torch.diff with append gives position t the gap to the NEXT event (ts[t+1] - ts[t]), so the input at t already encodes when event t+1 happens, and the prediction of event t+1 sees future information despite the causal attention mask. The gap must be to the previous event (prepend=ts[:, :1])."),
    )
