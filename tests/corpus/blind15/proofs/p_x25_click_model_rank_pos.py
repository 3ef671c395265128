from lib import *

NAME = "x25_click_model_rank_pos"


def order_ref(mod):
    """reversing the order of the pages in the batch must give each page the same click probabilities"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    rev = run(model, tuple(a.flip(0) for a in args), kw)
    return maxdiff(full, rev.flip(0))




def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("x = x + self.rank_emb(torch.arange(x.size(0), device=x.device)).unsqueeze(1)",
              "x = x + self.rank_emb(torch.arange(x.size(1), device=x.device)).unsqueeze(0)")],
        checks={
            "padding": (perturb(0, lambda a, k: ~a[1]), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1])), samp(0)),
        },
        ref=refs(order_ref, solo(1, n=None)),
        note="ref = the same pages in reversed batch order, and page 1 alone (buggy: a page's predictions depend on its index in the batch)",
        label=dict(expected=["positional-axis"], also_ok_codes=[],
                   line_sub="x = x + self.rank_emb(torch.arange(x.size(0), device=x.device)).unsqueeze(1)",
                   also_subs=[], consequence_codes=[],
                   why="The encoder is batch-first, (pages, results, d), but the rank embedding is looked up with arange(x.size(0)) and unsqueezed at dim 1, the sequence-first recipe: the table (B, 1, d) varies along the batch axis. Every result on a page gets the same 'rank' vector, chosen by the page's index in the batch, so the model has no position bias and a page's click probabilities change when it is moved within the batch."),
    )
