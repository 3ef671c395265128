"""Product-attribute extraction from e-commerce web pages with MarkupLM.

Each token of the page text carries the XPath of its DOM node (tag ids + sibling subscripts per
depth). A BIO tagger marks attribute values (brand, price, size, ...) and a page-level head tells
product pages from listing / review pages. The tokenizer is RoBERTa's: <pad> has id 1.
"""
import torch
import torch.nn as nn
from transformers import MarkupLMConfig, MarkupLMModel

ATTRIBUTES = ["brand", "price", "size", "color"]
TAGS = ["O"] + [f"{p}-{a}" for a in ATTRIBUTES for p in ("B", "I")]


class ProductPageTagger(nn.Module):
    def __init__(self, config: MarkupLMConfig):
        super().__init__()
        self.config = config
        self.markuplm = MarkupLMModel(config, add_pooling_layer=False)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.tagger = nn.Linear(config.hidden_size, len(TAGS))
        self.page_head = nn.Sequential(nn.Linear(config.hidden_size, config.hidden_size), nn.Tanh(),
                                       nn.Linear(config.hidden_size, 2))

    def forward(self, input_ids, xpath_tags_seq, xpath_subs_seq):
        attention_mask = input_ids.ne(self.config.pad_token_id).long()
        out = self.markuplm(input_ids=input_ids, xpath_tags_seq=xpath_tags_seq, xpath_subs_seq=xpath_subs_seq,
                            attention_mask=attention_mask, token_type_ids=torch.zeros_like(input_ids))
        h = self.dropout(out.last_hidden_state)
        w = attention_mask.unsqueeze(-1).to(h.dtype)
        page = (h * w).sum(1) / w.sum(1).clamp(min=1.0)
        return {"tags": self.tagger(h), "page": self.page_head(page)}


def collate(pages, config):
    """pages: list of (token ids, tag ids [n, depth], subscripts [n, depth]); right-pads the batch"""
    T = max(len(p[0]) for p in pages)
    B, depth = len(pages), config.max_depth
    ids = torch.full((B, T), config.pad_token_id, dtype=torch.long)
    tags = torch.full((B, T, depth), config.tag_pad_id, dtype=torch.long)
    subs = torch.full((B, T, depth), config.subs_pad_id, dtype=torch.long)
    for b, (t, g, s) in enumerate(pages):
        ids[b, : len(t)], tags[b, : len(t)], subs[b, : len(t)] = t, g, s
    return ids, tags, subs


def build():
    torch.manual_seed(0)
    config = MarkupLMConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                            intermediate_size=64, max_position_embeddings=64, max_depth=6,
                            xpath_unit_hidden_size=8, pad_token_id=1)
    model = ProductPageTagger(config).eval()
    pages = []
    for n in (16, 11, 7):
        toks = torch.cat([torch.tensor([0]), torch.randint(3, 120, (n - 2,)), torch.tensor([2])])
        pages.append((toks, torch.randint(0, 216, (n, 6)), torch.randint(0, 50, (n, 6))))
    return model, collate(pages, config)
