"""Named-entity tagger: transformer over subwords, first-subword pooling to words, linear-chain CRF.

`word_starts[b, w]` is the subword index of the first piece of word w; words beyond the
sentence are padding (`word_mask == 0`). The module returns the CRF log-partition per sentence
(the normaliser of the training NLL), computed with the forward algorithm.
"""
import torch
import torch.nn as nn


class LinearChainCRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.start = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.end = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)   # [from, to]

    def log_partition(self, emissions, mask):
        # emissions: (B, W, K); mask: (B, W) bool, every sentence has at least one word
        alpha = self.start + emissions[:, 0]
        for t in range(1, emissions.size(1)):
            scores = alpha.unsqueeze(2) + self.transitions + emissions[:, t].unsqueeze(1)
            nxt = torch.logsumexp(scores, dim=1)
            alpha = torch.where(mask[:, t].unsqueeze(1), nxt, alpha)
        return torch.logsumexp(alpha + self.end, dim=1)


class SubwordNERTagger(nn.Module):
    def __init__(self, vocab=200, dim=32, heads=4, layers=2, num_tags=7, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.emit = nn.Linear(dim, num_tags)
        self.crf = LinearChainCRF(num_tags)

    def forward(self, subword_ids, word_starts, word_mask):
        pad = subword_ids.eq(0)
        h = self.embed(subword_ids) + self.pos(torch.arange(subword_ids.size(1), device=subword_ids.device))
        h = self.encoder(h, src_key_padding_mask=pad)
        words = h.gather(1, word_starts.unsqueeze(-1).expand(-1, -1, h.size(-1)))
        return self.crf.log_partition(self.emit(words), word_mask.bool())


def build():
    torch.manual_seed(0)
    model = SubwordNERTagger().eval()
    # sentence lengths in subwords / words
    pieces = [[1, 2, 1, 1, 3, 1, 2], [2, 1, 1, 1], [1, 1, 3, 2, 1]]
    S, W = 14, 7
    subword_ids = torch.zeros(3, S, dtype=torch.long)
    word_starts = torch.zeros(3, W, dtype=torch.long)
    word_mask = torch.zeros(3, W, dtype=torch.long)
    for b, p in enumerate(pieces):
        pos = 1                                    # slot 0 holds [CLS]
        subword_ids[b, 0] = 1
        for w, n in enumerate(p):
            word_starts[b, w] = pos
            word_mask[b, w] = 1
            subword_ids[b, pos:pos + n] = torch.randint(3, 200, (n,))
            pos += n
        subword_ids[b, pos] = 2                    # [SEP]
    return model, (subword_ids, word_starts, word_mask)
