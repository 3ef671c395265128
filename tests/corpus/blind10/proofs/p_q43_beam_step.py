from lib import *

NAME = "q43_beam_step"


def pad_cache(a, k):
    m = (a[3] == 0)[:, None, :, None]
    g = torch.Generator().manual_seed(3)
    cache = [(torch.where(m, torch.randn(kk.shape, generator=g) * 3, kk),
              torch.where(m, torch.randn(vv.shape, generator=g) * 3, vv)) for kk, vv in a[2]]
    return a[:2] + (cache,) + a[3:], k


def other_example(a, k):
    cache = [(kk.clone(), vv.clone()) for kk, vv in a[2]]
    for kk, vv in cache:
        kk[3:] += torch.randn(kk[3:].shape); vv[3:] += torch.randn(vv[3:].shape)
    ids = a[0].clone(); ids[3:] = (ids[3:] + 7) % 40
    return (ids, a[1], cache) + a[3:], k


def result():
    return prove(
        NAME, "correct",
        checks={"padding": (pad_cache, whole()), "batch": (other_example, samp(0))},
        note="batch*beams rows; cache and mask reordered with the same beam_idx; left-pad cache entries masked (changing them changes nothing); example 1's beams do not affect example 0",
        label=dict(expected=[], line_sub="attention_mask = attention_mask.index_select(0, beam_idx)",
                   also_subs=["cache = [(k.index_select(0, beam_idx), v.index_select(0, beam_idx)) for k, v in cache]"],
                   why="The KV cache and the padding mask are reordered with the same beam index (which stays within each example), the new token's key is appended as visible, and the final view groups beams per example."),
    )
