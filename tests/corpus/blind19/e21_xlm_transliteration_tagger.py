"""Language identification of code-mixed, romanized text (transliteration pre-step) with a small
XLM encoder: the per-token language tags are predicted, and a sentence-level matrix-language
label is read from a masked mean of the token states."""
import torch
import torch.nn as nn
from transformers import XLMConfig, XLMModel


class CodeMixTagger(nn.Module):
    def __init__(self, config, n_langs=4):
        super().__init__()
        self.xlm = XLMModel(config)
        self.token_head = nn.Linear(config.emb_dim, n_langs)
        self.sent_head = nn.Linear(config.emb_dim, n_langs)

    def forward(self, input_ids, attention_mask):
        h = self.xlm(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        sent = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        token_logits = self.token_head(h) * m
        return torch.cat([token_logits, self.sent_head(sent)[:, None]], 1)


def build():
    torch.manual_seed(0)
    cfg = XLMConfig(vocab_size=140, emb_dim=32, n_layers=2, n_heads=4, max_position_embeddings=64,
                    dropout=0.0, attention_dropout=0.0, pad_index=2, n_langs=1, use_lang_emb=False)
    model = CodeMixTagger(cfg).eval()
    ids = torch.randint(5, 140, (3, 13))
    mask = torch.ones(3, 13, dtype=torch.long)
    mask[1, 9:] = 0
    mask[2, 4:] = 0
    ids[mask == 0] = 2
    return model, (ids, mask)
