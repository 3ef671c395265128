from lib import *

NAME = "f07_world_model_block_causal"


def ref(mod):
    """largest difference between the model's mask and the block-causal mask of 5-token blocks"""
    m = mod.BlockCausalWorldModel()
    T = 20
    blk = torch.arange(T) // 5
    want = blk[None, :] > blk[:, None]
    return float((m.block_mask(T, None) != want).any())


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("block = torch.arange(T, device=device) // self.cfg.tokens_per_obs",
              "block = torch.arange(T, device=device) // self.cfg.tokens_per_block")],
        checks={
            # change steps 2 and 3 (observation codes and actions); blocks 0-1 = tokens 0..9
            "causal": (chain(perturb(0, after(0, 1), 0, 64), perturb(1, after(1, 1), 0, 6)), upto(9)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 64), perturb(1, sample(1, 1), 0, 6)), samp(0)),
        },
        ref=ref,
        note="ref = 1 if the mask differs from block-causal over (K+1)-token steps",
        label=dict(expected=["causal-leak"], line_sub="block = torch.arange(T, device=device) // self.cfg.tokens_per_obs",
                   also_subs=["return block[None, :] > block[:, None]"], also_ok_codes=[], consequence_codes=[],
                   why="A step occupies tokens_per_obs + 1 tokens (codes plus action) but block ids are computed with tokens_per_obs, so the block boundaries drift: the action token of step 0 and the last codes of step 1 share a block with the first codes of the next step. Those tokens attend to observation codes of a later frame, leaking the future into the prediction."),
    )
