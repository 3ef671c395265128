"""Review classifier on a (tiny, randomly initialized) RoBERTa from transformers.
The collate function pads with <pad> = 1 and returns each review's token count,
<s> and </s> included.
"""
import torch
import torch.nn as nn
from transformers import RobertaConfig, RobertaForSequenceClassification

PAD, BOS, EOS = 1, 0, 2


class ReviewClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        config = RobertaConfig(
            vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
            max_position_embeddings=40, pad_token_id=PAD, bos_token_id=BOS, eos_token_id=EOS, num_labels=5,
            initializer_range=0.2,
        )
        self.roberta = RobertaForSequenceClassification(config)

    def forward(self, input_ids, lengths):
        T = input_ids.size(1)
        attention_mask = (torch.arange(T, device=input_ids.device)[None, :] <= lengths[:, None]).long()
        return self.roberta(input_ids=input_ids, attention_mask=attention_mask).logits


def collate(token_lists):
    T = max(len(t) for t in token_lists)
    ids = torch.full((len(token_lists), T), PAD)
    for i, t in enumerate(token_lists):
        ids[i, : len(t)] = torch.tensor(t)
    return ids, torch.tensor([len(t) for t in token_lists])


def build():
    torch.manual_seed(0)
    model = ReviewClassifier().eval()
    reviews = [[BOS] + torch.randint(3, 100, (n,)).tolist() + [EOS] for n in (14, 9, 5)]
    input_ids, lengths = collate(reviews)
    return model, (input_ids, lengths)
