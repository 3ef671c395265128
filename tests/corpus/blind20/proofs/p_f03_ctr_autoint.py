from lib import *

NAME = "f03_ctr_autoint"


def interacting_ref(layer, e):
    """AutoInt interacting layer: each field's query is normalized over the key fields"""
    B, n, D = e.shape
    H, dh = layer.heads, layer.dh
    q = layer.W_query(e).view(B, n, H, dh).transpose(1, 2)
    k = layer.W_key(e).view(B, n, H, dh).transpose(1, 2)
    v = layer.W_value(e).view(B, n, H, dh).transpose(1, 2)
    w = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dh), dim=-1)
    out = (w @ v).transpose(1, 2).reshape(B, n, D) + layer.W_res(e)
    return torch.relu(out)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("weights = inner.softmax(dim=2)", "weights = inner.softmax(dim=3)")],
        checks={
            "batch": (chain(perturb(0, sample(0, 1), 0, 7), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=module_ref(lambda m: m.interacting[0], interacting_ref),
        note="ref = first interacting layer vs an independent AutoInt layer (softmax over key fields)",
        label=dict(expected=["softmax-axis"], line_sub="weights = inner.softmax(dim=2)",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="The scores are laid out 'bhfg' (query field f, key field g) but the softmax normalizes over dim 2, the query fields, so each field's weights over the key fields do not sum to one. The per-field aggregation becomes a column-normalized mixture instead of attention over the other fields."),
    )
