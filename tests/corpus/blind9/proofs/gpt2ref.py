import torch
from transformers import GPT2Config, GPT2LMHeadModel


def hf_gpt2_from(m):
    ref = GPT2LMHeadModel(GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0,
                                     attn_implementation="eager")).eval()
    sd = {("transformer." + k if not k.startswith("lm_head") else k): v for k, v in m.state_dict().items()}
    missing, unexpected = ref.load_state_dict(sd, strict=False)
    missing = [k for k in missing if not k.endswith("attn.bias") and not k.endswith("masked_bias")]
    assert not missing and not unexpected, (missing, unexpected)
    return ref


def prompt_and_next(mod):
    torch.manual_seed(0)
    model = mod.GPT2LMHeadModel(mod.GPT2Config()).eval()
    with torch.no_grad():
        for x in model.modules():
            if isinstance(x, mod.Conv1D):
                x.weight.normal_(0.0, 0.2)
    prompt = torch.randint(0, 64, (2, 6))
    nxt = torch.randint(0, 64, (2, 4))
    return model, prompt, nxt
