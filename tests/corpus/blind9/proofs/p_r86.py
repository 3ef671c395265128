from lib import *
N = "r86_gpt_chat"
FIX = [("y = y.transpose(1, 2).view(B, T, C)", "y = y.transpose(1, 2).contiguous().view(B, T, C)")]
err = None
try:
    run(N)
except RuntimeError as e:
    err = str(e).splitlines()[0]
ok = run_fixed(N, FIX).shape
assert err is not None
report(name=N, verdict="buggy", harm="null", fix=FIX, error=err, fixed_output_shape=list(ok),
       note="view on the non-contiguous transposed tensor raises at the first forward")
