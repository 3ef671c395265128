from lib import *

NAME = "e22_fact_verification_evidence"


def empty_slots(a, k):
    return (~a[1])[:, :, None] & (torch.arange(a[0].size(2)) < 8)[None, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("att = att.masked_fill(~ev_mask[:, None, :, None], -1e9)",
              "att = att.masked_fill(~ev_mask[:, None, None, :], -1e9)")],
        checks={"padding": (perturb(0, empty_slots, 1, 160), whole())},
        label=dict(expected=["mask-axis"], line_sub="att = att.masked_fill(~ev_mask[:, None, :, None], -1e9)",
                   consequence_codes=["padding-leak"],
                   why="The evidence mask is broadcast over the query axis of the (B, H, N, N) score table instead of the key axis: empty evidence slots remain visible as keys to the real evidence rows."),
    )
