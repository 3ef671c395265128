from lib import *

NAME = "x28_performer_redraw"

OLD = """        key_mask = mask[:, None, :, None]
        projection = gaussian_orthogonal_random_matrix(self.nb_features, self.dim_head, device=x.device)
        q = softmax_kernel(q, projection, is_query=True)
        k = softmax_kernel(k, projection, is_query=False, key_mask=key_mask) * key_mask"""
NEW = """        key_mask = mask[:, None, :, None]
        projection = self.projection_matrix
        q = softmax_kernel(q, projection, is_query=True)
        k = softmax_kernel(k, projection, is_query=False, key_mask=key_mask) * key_mask"""
BUF = ("        self.nb_features = nb_features\n",
       "        self.nb_features = nb_features\n        self.register_buffer(\"projection_matrix\", gaussian_orthogonal_random_matrix(nb_features, self.dim_head))\n")


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[BUF, (OLD, NEW)],
        checks={
            "padding": (perturb(0, lambda a, k: ~a[1], 1, 128), whole()),
        },
        note="two eval-mode passes on the same tokens give different class logits (the padding check compares two passes, so it moves too)",
        label=dict(expected=["nondeterministic"], also_ok_codes=[],
                   line_sub="projection = gaussian_orthogonal_random_matrix(self.nb_features, self.dim_head, device=x.device)",
                   also_subs=[], consequence_codes=["padding-leak", "batch-leak"],
                   why="The random feature matrix is drawn with torch.randn inside forward, so every call, in eval mode too, approximates the attention with different features: the same review gets different logits on each pass. FAVOR+ draws the features once (a buffer) and redraws them only during training, on a schedule."),
    )
