import torch
from _util import *
N = "c42_video_frame_causal"
R = Report(N, "correct")
for t, v in causal_probe(N, 0, 1, 1, [0, 1, 2], None).items():
    R.inv(f"frames <= {t} unchanged when frames > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
base, a, _ = run(N)
def mut(a, k): a[0][:, 1, 3] = torch.randn(2, 48) * 3
y, _, _ = run(N, mut)
R.harm("sanity: patches of the same frame see each other (frame 1, patch 0 moves with patch 3)", md(base[:, 1, 0], y[:, 1, 0]))
R.inv("earlier frame 0 unchanged by a change in frame 1", md(base[:, 0], y[:, 0]))
m, a, _ = fresh(N)
with torch.no_grad():
    short = m(a[0][:, :2])
R.inv("first 2 frames == running only the first 2 frames", md(base[:, :2], short), 1e-6)
R.done()
