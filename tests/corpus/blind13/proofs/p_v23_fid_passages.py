from lib import *

NAME = "v23_fid_passages"

def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("memory = enc.reshape(B, P * L, self.d)", "memory = enc.view(P, B, L, self.d).transpose(0, 1).reshape(B, P * L, self.d)")],
        checks={
            "batch": (perturb(0, sample(0, 1), 3, 70), samp(0)),
            "padding": (perturb(0, where_eq(1, 0), 3, 70), whole()),
            "causal": (perturb(2, after(2, 2), 3, 70), upto(2)),
        },
        note="the encoder batch is passage-major (P * B); reshaping to (B, P * L) gives question 0 passages of question 1",
        label=dict(expected=["batch-leak"], also_ok_codes=["axis-mismatch", "padding-leak"],
                   line_sub="memory = enc.reshape(B, P * L, self.d)",
                   also_subs=["flat_ids = passage_ids.transpose(0, 1).reshape(P * B, L)"],
                   why="The passages are encoded passage-major (row p * B + b), but the encoder output is reshaped as if it were question-major: question 0's memory is made of rows 0..P-1, i.e. passage 0 of both questions and passage 1 of question 0. Each answer attends to another question's passages, and the memory padding mask (question-major) no longer lines up with the memory."),
    )
