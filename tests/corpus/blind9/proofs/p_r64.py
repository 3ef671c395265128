from lib import *
N = "r64_conv_mixer_lm"
FIX = [("        qkv = self.dwconv(qkv.transpose(1, 2)).transpose(1, 2)", "        qkv = self.dwconv(F.pad(qkv.transpose(1, 2), (self.dwconv.kernel_size[0] - 1 - self.dwconv.padding[0], 0)))[..., :T].transpose(1, 2)")]
c = causal_probe(N, vocab=64)
c1 = causal_probe(N, vocab=64, tpos=[4])
fc = causal_probe(fixed_name(N, FIX), vocab=64)
assert c > 1e-2 and fc < 1e-6
report(name=N, verdict="buggy", harm="causal", fix=FIX, causal_maxdiff=c, causal_maxdiff_t4=c1, fixed_causal_maxdiff=fc,
       note="depthwise conv with symmetric padding=k//2 mixes q/k/v of token t+1 into t before the causal mask is applied")
