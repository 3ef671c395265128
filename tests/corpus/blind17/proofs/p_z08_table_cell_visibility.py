from lib import *

NAME = "z08_table_cell_visibility"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 150), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 150), samp(0)),
        },
        ref=solo(2, 10),
        label=dict(line_sub="vis = vis | (eye & ~real[:, :, None])",
                   why="Visibility is restricted to the question plus same-row and same-column cells (a sparse pattern by design); padding keys are removed along the key axis and padded queries keep only their own diagonal, which touches no real row and prevents empty softmax rows."),
    )
