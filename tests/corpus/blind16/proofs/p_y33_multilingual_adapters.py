from lib import *

NAME = "y33_multilingual_adapters"


def result():
    return prove(
        NAME, "correct",
        checks={"padding": (perturb(0, where_eq(1, 0), 3, 160), whole()),
                "batch": (chain(perturb(0, both(sample(0, 0), where_eq(1, 1)), 3, 160), perturb(2, sample(2, 0), 0, 5)), samp(1)),
                "batch_lang": (perturb(2, sample(2, 2), 0, 5, seed=2), samp(1))},
        ref=solo(1, n=10, pooled=True),
        note="ref: sample 1 alone (cut to its 10 tokens) gives the same logits",
        label=dict(line_sub='z = torch.einsum("btd,bdr->btr", self.ln(h), self.down[lang_ids]) + self.down_b[lang_ids][:, None]',
                   why="Adapter weights are gathered per sample by language id and applied with batched einsums over the sample's own tokens, so mixing languages in a batch couples nothing; the padding mask is passed as src_key_padding_mask (True = pad)."),
    )
