from lib import *

NAME = "u17_bilstm_attention"
pads = lambda a, k: torch.arange(get(a, k, 0).size(1))[None] >= get(a, k, 1)[:, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("h, _ = self.rnn(x)",
              "h, _ = nn.utils.rnn.pad_packed_sequence(self.rnn(nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False))[0], batch_first=True, total_length=x.size(1))")],
        checks={
            "padding": (perturb(0, pads, 1, 60), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 60), samp(0)),
        },
        ref=refs(solo(1, n=6, pooled=True), solo(2, n=3, pooled=True)),
        note="the backward LSTM starts at the last padded step and runs through the padding before reaching the real tokens",
        label=dict(expected=["padding-leak"], line_sub="h, _ = self.rnn(x)",
                   why="Without pack_padded_sequence the backward direction of the BiLSTM reads the padded steps first, so the hidden state of every real token carries the padding (pad embeddings are zero, but the LSTM's biases still move the state, and pad ids other than the padding_idx would too); the attention mask is right but the states it pools are contaminated, and the result differs from the sentence alone."),
    )
