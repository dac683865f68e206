#!/usr/bin/python3
"""Writes the parity fixtures of AugMix (dev.stoker.vision.augment.AugMix) with torchvision 0.14.

Run from the repository root with Debian's Python, after make_augment_fixtures.py (it reads that
script's input images; it writes augmix_big.rgb, 96x72, of its own):
    /usr/bin/python3 vision/src/test/python/make_augmix_fixtures.py
torchvision 0.14's AugMix turns a PIL image into a uint8 tensor and runs each op's tensor form
(grid_sample for the warps, float32 blends), so the fixtures are those tensor forms:

- augmix_ops.txt / augmix_ops.rgb: `_apply_op(uint8 (1, 3, H, W) tensor, op, magnitude,
  interpolation, fill=None)` for every op of AugMix's space at bins 1, 4 and 9 of its 10-bin table, both
  signs, nearest and bilinear for the warps; the outputs (uint8 HWC) concatenated, each row
  naming its offset.
- augmix.txt / augmix.rgb: the whole `AugMix(...)(pil_image)` with its draws scripted: the two
  Dirichlet samples (drawn by torch, then fed back through `_sample_dirichlet`) and every
  `torch.randint` (chain depth, op, bin, sign) taken from a list, so Java can replay them.
"""
import os
import numpy as np
import torch
from PIL import Image
from make_fixtures import ROOT, picture, write


def load(d, name, w, h):
    return Image.frombytes("RGB", (w, h), open(os.path.join(d, f"{name}.rgb"), "rb").read())


def to_hwc(t):
    return t.reshape(3, t.shape[-2], t.shape[-1]).permute(1, 2, 0).contiguous().numpy().astype(np.uint8).tobytes()


class Scripted:
    """torch.randint replaced by a list of answers, and AugMix's Dirichlet samples given."""

    def __init__(self, ints):
        self.ints = list(ints)
        self.real = torch.randint

    def __call__(self, *args, **kwargs):
        return torch.tensor([self.ints.pop(0)])

    def __enter__(self):
        torch.randint = self
        return self

    def __exit__(self, *exc):
        torch.randint = self.real
        assert not self.ints, f"draws left over: {self.ints}"


def scripted_run(aug, name, img, rng, offset):
    """aug(img) with its draws taken from rng (and torch's Dirichlets), replayable: (augmix.txt's row, the output)."""
    from torchvision import transforms as T
    n_ops = len(aug._augmentation_space(10, (img.size[1], img.size[0])))
    dirichlets = [torch._sample_dirichlet(torch.tensor([[aug.alpha, aug.alpha]])),
                  torch._sample_dirichlet(torch.tensor([[aug.alpha] * aug.mixture_width]))]
    given = list(dirichlets)
    aug._sample_dirichlet = lambda params: given.pop(0)
    ints, chains = [], []
    space = list(aug._augmentation_space(10, (img.size[1], img.size[0])).items())
    for _ in range(aug.mixture_width):
        depth = aug.chain_depth if aug.chain_depth > 0 else int(rng.integers(1, 4))
        if aug.chain_depth <= 0:
            ints.append(depth)
        chain = []
        for _ in range(depth):
            op = int(rng.integers(n_ops))
            ints.append(op)
            mags, signed = space[op][1]
            b = int(rng.integers(aug.severity)) if mags.ndim > 0 else 0
            if mags.ndim > 0:
                ints.append(b)
            s = int(rng.integers(2)) if signed else 0
            if signed:
                ints.append(s)
            chain.append(f"{op}:{b}:{s}")
        chains.append(",".join(chain))
    with Scripted(ints):
        out = aug(img)
    interp = "nearest" if aug.interpolation == T.InterpolationMode.NEAREST else "bilinear"
    weights = [repr(float(v)) for v in dirichlets[0][0]] + [repr(float(v)) for v in dirichlets[1][0]]
    row = (f"{name} {img.size[0]} {img.size[1]} {aug.severity} {aug.mixture_width} {aug.chain_depth} "
           f"{aug.alpha} {int(aug.all_ops)} {interp} {offset} {' '.join(weights)} {' '.join(chains)}")
    return row, out


def main():
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    from torchvision.transforms.autoaugment import _apply_op
    d = os.path.join(ROOT, "augment")
    inputs = {"photo": (32, 24), "flat": (32, 24), "low": (32, 24), "square": (24, 24)}
    imgs = {n: load(d, n, w, h) for n, (w, h) in inputs.items()}
    big = picture(96, 72, 29)  # larger than the others, for the whole mixes: the grid's float32 steps at more positions
    write(os.path.join(d, "augmix_big.rgb"), np.asarray(big).tobytes())
    modes = {"nearest": T.InterpolationMode.NEAREST, "bilinear": T.InterpolationMode.BILINEAR}

    rows, blob = [], bytearray()
    for name, img in imgs.items():
        w, h = img.size
        t = F.pil_to_tensor(img).unsqueeze(0)
        space = T.AugMix(all_ops=True)._augmentation_space(10, (h, w))
        for op, (mags, signed) in space.items():
            bins = (1, 4, 9) if mags.ndim > 0 else [0]
            geometric = op in ("ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate")
            if name == ("low" if geometric else "square"):
                continue  # the warps on photo, flat and square; the others on photo, flat and low
            for b in bins:
                for sign in ([1, -1] if signed else [1]):
                    m = float(mags[b].item()) * sign if mags.ndim > 0 else 0.0
                    for interp in (["nearest", "bilinear"] if geometric else ["nearest"]):
                        out = _apply_op(t, op, m, interpolation=modes[interp], fill=None)
                        rows.append(f"{name} {w} {h} {op} {b} {sign} {interp} {len(blob)}")
                        blob += to_hwc(out)
    write(os.path.join(d, "augmix_ops.rgb"), bytes(blob))
    write(os.path.join(d, "augmix_ops.txt"), ("# input width height op bin sign interpolation offset\n"
                                              + "\n".join(rows) + "\n").encode())

    # Whole AugMix runs, draws scripted.
    rng = np.random.default_rng(5)
    torch.manual_seed(5)
    rows, blob = [], bytearray()
    configs = [dict(), dict(severity=1), dict(severity=10, mixture_width=2, chain_depth=2),
               dict(all_ops=False, interpolation=T.InterpolationMode.NEAREST, alpha=0.5),
               dict(mixture_width=4, chain_depth=3, interpolation=T.InterpolationMode.NEAREST)]
    for k in range(12):
        cfg = configs[k % len(configs)] if k < 10 else dict(mixture_width=4, chain_depth=3,
                                                             interpolation=[T.InterpolationMode.NEAREST,
                                                                            T.InterpolationMode.BILINEAR][k % 2])
        name = ["photo", "flat", "low", "square"][k % 4] if k < 10 else "augmix_big"
        img = imgs[name] if k < 10 else big
        aug = T.AugMix(**cfg)
        row, out = scripted_run(aug, name, img, rng, len(blob))
        rows.append(row)
        blob += np.asarray(out).tobytes()
    write(os.path.join(d, "augmix.rgb"), bytes(blob))
    write(os.path.join(d, "augmix.txt"), (
        "# input width height severity mixture_width chain_depth alpha all_ops interpolation offset\n"
        "# m0 m1 (Beta as a 2-Dirichlet) w_1..w_width (Dirichlet), then per chain op:bin:sign,...\n"
        "# (op: index into AugMix's space; sign 1 negates)\n" + "\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    main()
