from lib import *

NAME = "g05_hf_markuplm_product_attributes"
PAD = 1
# tags (B, T, 9) with the page logits appended as row T (zero-padded to 9)
PICK = lambda o: torch.cat([o["tags"], F.pad(o["page"], (0, o["tags"].size(-1) - 2)).unsqueeze(1)], 1)


def pad_xpaths(args, kw):
    args, kw = perturb(1, where_eq(0, PAD), 0, 216)(args, kw)
    return perturb(2, where_eq(0, PAD), 0, 1001)(args, kw)


def real_tags_and_page(o, a, k):
    return torch.cat([o[:, :-1][a[0] != PAD].flatten(), o[:, -1].flatten()])


def result():
    emb = lambda m: m.markuplm.embeddings.word_embeddings
    return prove(
        NAME, "correct",
        pick=PICK,
        checks={
            "padding": (pad_xpaths, real_tags_and_page, pad_row(emb, PAD)),
            "batch": (chain(perturb(0, both(sample(0, 0), lambda a, k: a[0] != PAD), 3, 120),
                            perturb(1, sample(1, 0), 0, 216)), lambda o, a, k: o[1:]),
        },
        ref=refs(solo_cut(1, {0: 11, 1: 11, 2: 11}, pick=lambda o: o["tags"], out_cut=11),
                 solo_cut(2, {0: 7, 1: 7, 2: 7}, pick=lambda o: o["page"])),
        note="padding = pad embedding row and pad XPaths changed; ref = a page run alone, unpadded, gives the same tags / page logits",
        label=dict(line_sub="attention_mask = input_ids.ne(self.config.pad_token_id).long()",
                   why="MarkupLM uses RoBERTa's vocabulary where <pad> is id 1 (config.pad_token_id), so `ne(pad_token_id)` is 1 on real tokens and 0 on padding, the HF convention; the page vector is a masked mean, and MarkupLM's position ids skip the padding id, so each page gives the same outputs alone or padded in a batch."),
    )
