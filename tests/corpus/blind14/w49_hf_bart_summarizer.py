"""Teacher-forced forward of a tiny BART summarizer: padded articles, decoder inputs made from the
padded labels with shift_tokens_right, and the matching decoder attention mask."""
import torch
from transformers import BartConfig, BartForConditionalGeneration
from transformers.models.bart.modeling_bart import shift_tokens_right

PAD, BOS, EOS = 1, 0, 2


def build():
    torch.manual_seed(0)
    config = BartConfig(
        vocab_size=64, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
        decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64,
        pad_token_id=PAD, bos_token_id=BOS, eos_token_id=EOS, decoder_start_token_id=EOS, forced_eos_token_id=EOS,
    )
    model = BartForConditionalGeneration(config).eval()
    src_len = torch.tensor([14, 10, 6])
    attention_mask = (torch.arange(14)[None] < src_len[:, None]).long()
    input_ids = torch.where(attention_mask.bool(), torch.randint(3, 64, (3, 14)), torch.tensor(PAD))
    tgt_len = torch.tensor([7, 5, 6])
    labels = torch.where(torch.arange(7)[None] < tgt_len[:, None], torch.randint(3, 64, (3, 7)), torch.tensor(PAD))
    decoder_input_ids = shift_tokens_right(labels, PAD, EOS)
    decoder_attention_mask = decoder_input_ids.ne(PAD).long()
    return model, (input_ids,), {"attention_mask": attention_mask, "decoder_input_ids": decoder_input_ids,
                                 "decoder_attention_mask": decoder_attention_mask}
