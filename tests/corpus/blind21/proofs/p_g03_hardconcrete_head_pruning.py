from lib import *

NAME = "g03_hardconcrete_head_pruning"
FIX = [("s = self.sample_s() if self.training or self.log_alpha.requires_grad else self.mean_s()",
        "s = self.sample_s() if self.training else self.mean_s()")]


def result():
    return prove(
        NAME, "buggy", harm="random", fix=FIX,
        checks={},
        note="harm = two eval passes on the same input differ; fixed model is deterministic (checked by prove)",
        label=dict(expected=["nondeterministic"], line_sub="s = self.sample_s() if self.training or self.log_alpha.requires_grad else self.mean_s()",
                   also_subs=["u = torch.rand_like(self.log_alpha).clamp(1e-6, 1 - 1e-6)"], also_ok_codes=["dropout-eval"],
                   consequence_codes=[],
                   why="log_alpha is an nn.Parameter, so requires_grad is True in eval mode as well and the gates are re-sampled from the hard-concrete distribution at every forward: two eval passes on the same utterance give different intents. At inference the gates must use the deterministic estimate (training flag only)."),
    )
