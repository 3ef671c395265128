"""Review-sentiment classifier: a small ELECTRA discriminator fine-tuned from scratch. The data
pipeline was written for nn.TransformerEncoder and yields a boolean pad mask (True = padding)."""
import torch
import torch.nn as nn
from transformers import ElectraConfig, ElectraForSequenceClassification

PAD_ID = 0


def collate(token_lists, max_len=12):
    ids = torch.full((len(token_lists), max_len), PAD_ID, dtype=torch.long)
    for i, toks in enumerate(token_lists):
        ids[i, : len(toks)] = torch.tensor(toks[:max_len])
    pad_mask = ids.eq(PAD_ID)  # True where padded
    return ids, pad_mask


class ReviewClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        config = ElectraConfig(
            vocab_size=64, embedding_size=16, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
            num_attention_heads=4, max_position_embeddings=32, pad_token_id=PAD_ID, num_labels=3, initializer_range=0.2,
        )
        self.electra = ElectraForSequenceClassification(config)

    def forward(self, input_ids, pad_mask):
        out = self.electra(input_ids=input_ids, attention_mask=pad_mask.long())
        return out.logits


def build():
    torch.manual_seed(0)
    model = ReviewClassifier().eval()
    reviews = [torch.randint(3, 64, (n,)).tolist() for n in (12, 8, 5)]
    input_ids, pad_mask = collate(reviews)
    return model, (input_ids, pad_mask)
