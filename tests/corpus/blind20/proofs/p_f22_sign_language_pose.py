from lib import *

NAME = "f22_sign_language_pose"


def embed_ref(m, keypoints):
    """frame position must vary along the frame axis (1) and joint identity along the joint axis (2)"""
    B, T, J, _ = keypoints.shape
    return m.proj(keypoints) + m.joint_emb[None, None, :, :] + m.time_pos[None, :T, None, :]


def padded_frames(a, k):
    return torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("+ self.joint_emb + self.time_pos[:T]", "+ self.joint_emb + self.time_pos[:T, None]")],
        checks={
            "padding": (perturb(0, padded_frames), lambda o, a, k: o[~padded_frames(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=module_ref(lambda m: m.embed, embed_ref),
        note="ref = pose embedding vs frame positions added along the frame axis",
        label=dict(expected=["positional-axis"], line_sub="return self.proj(keypoints) + self.joint_emb + self.time_pos[:T]",
                   also_subs=[], also_ok_codes=["axis-mismatch"], consequence_codes=[],
                   why="time_pos[:T] is (T, D) and the keypoint features are (B, T, J, D): broadcasting aligns the table with the joint axis, which only works because clips and skeletons both have 18 entries. Frame positions become a second joint embedding, and the temporal Transformer (which has no other position signal) cannot tell frame order."),
    )
