from lib import *

NAME = "q31_transformer_xl_mem"



def result():
    # harm: query t cannot see its own token. With the diagonal hidden, output at position 0 depends on token 0
    # only through the residual; we measure the attention-path difference against the fixed version.
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("dec_attn_mask = torch.ones(qlen, klen, dtype=torch.bool).triu(mlen)",
              "dec_attn_mask = torch.ones(qlen, klen, dtype=torch.bool).triu(mlen + 1)")],
        checks={
            "causal": (perturb(0, after(0, 3), 0, 50), upto(3)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 50), perturb((1, 0), sample((1, 0), 1))), samp(0)),
        },
        note="triu(mlen) masks key index i+mlen, i.e. the query's own position; memory keeps every row non-empty; fix = triu(mlen+1)",
        label=dict(expected=["causal-diagonal"], line_sub="dec_attn_mask = torch.ones(qlen, klen, dtype=torch.bool).triu(mlen)",
                   why="Keys are [memory; segment], so query i is at key index i+mlen; triu(diagonal=mlen) masks that index, hiding each token from itself (no row is empty thanks to the memory)."),
    )
