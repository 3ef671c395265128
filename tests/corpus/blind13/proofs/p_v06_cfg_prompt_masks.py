from lib import *

NAME = "v06_cfg_prompt_masks"

def result():
    pads = chain(perturb(2, where_eq(3, 0), 3, 60), perturb(4, where_eq(5, 0), 3, 60, seed=7))
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("ctx_mask = torch.cat([cond_mask, uncond_mask])", "ctx_mask = torch.cat([uncond_mask, cond_mask])")],
        checks={
            "padding": (pads, whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 3, 60)), samp(0)),
        },
        note="prompt embeddings are stacked [uncond, cond] but their masks [cond, uncond]",
        label=dict(expected=["padding-leak"], also_ok_codes=["mask-axis", "axis-mismatch", "batch-leak"],
                   line_sub="ctx_mask = torch.cat([cond_mask, uncond_mask])",
                   also_subs=["ctx = self.encode_prompt(torch.cat([uncond_ids, cond_ids]))"],
                   why="The CFG batch stacks the empty-prompt embeddings first and the real prompts second, but the key masks in the opposite order. The unconditional half is masked with the real prompts' masks and attends to the padding of the empty prompt; the conditional half uses the 2-token mask of the empty prompt and loses most of its prompt. The guided noise prediction changes with the content of padded prompt positions."),
    )
