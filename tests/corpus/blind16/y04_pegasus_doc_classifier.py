"""Document-level topic classifier on a Pegasus encoder.

The encoder runs on padded token ids with its attention mask; the document vector is the
average of the encoder states and feeds a small MLP classifier.
"""
import torch
import torch.nn as nn
from transformers import PegasusConfig, PegasusModel


class PegasusDocClassifier(nn.Module):
    def __init__(self, config, num_labels=5):
        super().__init__()
        self.encoder = PegasusModel(config).get_encoder()
        self.head = nn.Sequential(
            nn.Linear(config.d_model, config.d_model), nn.Tanh(), nn.Linear(config.d_model, num_labels)
        )

    def forward(self, input_ids, attention_mask):
        states = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        doc = states.mean(dim=1)
        return self.head(doc)


def build():
    torch.manual_seed(0)
    config = PegasusConfig(vocab_size=128, d_model=32, encoder_layers=2, decoder_layers=1,
                           encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
                           decoder_ffn_dim=64, max_position_embeddings=64, pad_token_id=0)
    model = PegasusDocClassifier(config).eval()
    lengths = torch.tensor([20, 13, 8, 17])
    attention_mask = (torch.arange(20)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(3, 128, (4, 20)).masked_fill(attention_mask == 0, config.pad_token_id)
    return model, (input_ids, attention_mask)
