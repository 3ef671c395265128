from lib import *

NAME = "a29_hf_gptneo_ticket_router"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("last = out.last_hidden_state[:, -1, :]",
              "last = out.last_hidden_state[torch.arange(input_ids.size(0)), attention_mask.sum(1) - 1]")],
        checks={"padding": (perturb(0, where_eq(1, 0), 3, 128), whole())},
        ref=solo(2, n=6, pooled=True),
        label=dict(expected=["padding-leak"], line_sub="last = out.last_hidden_state[:, -1, :]",
                   why="With right padding the last position of a short ticket is a pad token, so the router reads the hidden state of a padded position; the routing decision changes with the padding content and differs from running the ticket alone."),
    )
