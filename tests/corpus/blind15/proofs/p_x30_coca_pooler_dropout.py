from lib import *

NAME = "x30_coca_pooler_dropout"

pick = lambda o: torch.cat([o[0].flatten(1), o[1], o[2]], dim=1)


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("        attn = F.dropout(attn, p=self.dropout)", "        attn = F.dropout(attn, p=self.dropout, training=self.training)")],
        checks={},
        pick=pick,
        note="two eval-mode passes on the same image and caption differ (image embedding and caption logits)",
        label=dict(expected=["dropout-eval"], also_ok_codes=["nondeterministic"],
                   line_sub="        attn = F.dropout(attn, p=self.dropout)", also_subs=[], consequence_codes=[],
                   why="F.dropout defaults to training=True, so the attentional pooler keeps dropping 10% of its attention weights (and rescaling the rest) after model.eval(): the contrastive image embedding and the captioning queries, hence the caption logits, change on every call for the same image."),
    )
