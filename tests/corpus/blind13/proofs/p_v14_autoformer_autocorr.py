from lib import *

NAME = "v14_autoformer_autocorr"

def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("tmp_corr = torch.softmax(weights, dim=0)", "tmp_corr = torch.softmax(weights, dim=-1)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="the softmax over the top-k lag weights runs over the batch axis",
        label=dict(expected=["softmax-axis"], also_ok_codes=["batch-leak"],
                   line_sub="tmp_corr = torch.softmax(weights, dim=0)",
                   why="weights is (B, top_k): the correlation of each series at its k selected lags. The weights that aggregate the rolled values must be normalised over the k lags of one series (dim=-1); dim=0 normalises each lag slot across the series of the batch, so one series' aggregation weights depend on the other series in the batch."),
    )
