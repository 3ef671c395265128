from lib import *

NAME = "q48_vit_registers"


def ref(mod):
    # patch-token outputs must be equivariant to permuting patches (with their positions) -> check via pos-free test:
    # the output split must discard exactly the registers: compare token count
    torch.manual_seed(1)
    m = mod.ViTWithRegisters().eval()
    with torch.no_grad():
        _, p = m(torch.randn(1, 3, 16, 16))
    return float(abs(p.shape[1] - 16))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=ref,
        note="positions added to CLS+patches before inserting 4 registers; output slices skip CLS and registers (16 patch tokens back)",
        label=dict(expected=[], line_sub="x = torch.cat([x[:, :1], self.register_tokens.expand(B, -1, -1), x[:, 1:]], dim=1)",
                   also_subs=["cls, patches = x[:, 0], x[:, 1 + self.num_registers:]  # registers are discarded"],
                   why="Learned positions (n_patches+1) are added along the token axis before registers are inserted; registers take part in attention and are dropped at the output."),
    )
