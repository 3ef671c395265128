import glob, os, torch, warnings
from lib import *
warnings.filterwarnings("ignore")
for f in sorted(glob.glob(os.path.join(ROOT, "r*.py"))):
    n = os.path.basename(f)[:-3]
    m, a, kw = build(n)
    tr = [k for k, mod in m.named_modules() if mod.training]
    try:
        o1 = run(n); o2 = run(n)
        d = maxdiff(o1, o2); nan = bool(torch.isnan(o1).any())
    except Exception as e:
        d, nan = "ERR " + type(e).__name__, None
    if tr or d not in (0.0,) or nan:
        print(n, "training:", tr[:3], "rebuild_diff:", d, "nan:", nan)
print("done")
