from lib import *

NAME = "w49_hf_bart_summarizer"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: k["attention_mask"] == 0, 3, 64), lambda o, a, k: o[k["decoder_attention_mask"] == 1]),
            "causal": (perturb("decoder_input_ids", after("decoder_input_ids", 3), 3, 64), upto(3)),
            "batch": (chain(perturb(0, sample(0, 1), 3, 64), perturb("decoder_input_ids", sample("decoder_input_ids", 1), 3, 64)), samp(0)),
        },
        note="padding = changing the padded article tokens leaves every real decoder position unchanged",
        label=dict(line_sub="decoder_input_ids = shift_tokens_right(labels, PAD, EOS)",
                   why="shift_tokens_right prepends decoder_start_token_id and drops the last label, so decoder position t is fed labels[:t] only; the encoder attention_mask is the tokenizer's 1 = real; the decoder attention mask hides the trailing pad inputs, and the library adds the causal mask."),
    )
