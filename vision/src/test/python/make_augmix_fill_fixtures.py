#!/usr/bin/python3
"""Writes the parity fixtures of AugMix's fill (dev.stoker.vision.augment.Fill) with torchvision 0.14.

Run from the repository root with Debian's Python, after make_augment_fixtures.py (it reads
photo.rgb; it writes augmix_fill_in.rgb, 20x16, of its own):
    /usr/bin/python3 vision/src/test/python/make_augmix_fill_fixtures.py

- augmix_fill_ops.txt / .rgb: `_apply_op(uint8 (1, 3, H, W) tensor, warp, magnitude,
  interpolation, fill)` for AugMix's five warps at bin 9 (positive) and bin 4 (negative), nearest
  and bilinear, with the fills 0 (not None's output: bilinear edges blend with the mask), 128,
  127.5 (rounded half to even where it lands), [10, 200, 255] and [77] (one value for all).
- augmix_fill.txt / .rgb: whole `AugMix(..., fill=...)(pil_image)` runs with their draws scripted,
  augmix.txt's columns and the fill last.
"""
import os
import numpy as np
import torch
from make_fixtures import ROOT, picture, write
from make_augmix_fixtures import load, scripted_run, to_hwc

FILLS = [0, 128, 127.5, [10, 200, 255], [77]]


def fill_text(fill):
    return ",".join(repr(float(v)) for v in (fill if isinstance(fill, list) else [fill]))


def main():
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    from torchvision.transforms.autoaugment import _apply_op
    d = os.path.join(ROOT, "augment")
    small = picture(20, 16, 31)
    write(os.path.join(d, "augmix_fill_in.rgb"), np.asarray(small).tobytes())
    modes = {"nearest": T.InterpolationMode.NEAREST, "bilinear": T.InterpolationMode.BILINEAR}

    rows, blob = [], bytearray()
    w, h = small.size
    t = F.pil_to_tensor(small).unsqueeze(0)
    space = T.AugMix()._augmentation_space(10, (h, w))
    for fill in FILLS:
        for op in ("ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate"):
            mags, _ = space[op]
            for b, sign in ((9, 1), (4, -1)):
                m = float(mags[b].item()) * sign
                for interp in ("nearest", "bilinear"):
                    out = _apply_op(t, op, m, interpolation=modes[interp], fill=fill)
                    rows.append(f"{op} {b} {sign} {interp} {fill_text(fill)} {len(blob)}")
                    blob += to_hwc(out)
    write(os.path.join(d, "augmix_fill_ops.rgb"), bytes(blob))
    write(os.path.join(d, "augmix_fill_ops.txt"), (
        f"# on augmix_fill_in.rgb ({w}x{h}): op bin sign interpolation fill offset\n"
        + "\n".join(rows) + "\n").encode())

    rng = np.random.default_rng(11)
    torch.manual_seed(11)
    photo = load(d, "photo", 32, 24)
    rows, blob = [], bytearray()
    for fill, interp in ((128, "bilinear"), ([10, 200, 255], "nearest"), (0, "bilinear"), (127.5, "nearest")):
        aug = T.AugMix(mixture_width=4, chain_depth=3, interpolation=modes[interp], fill=fill)
        row, out = scripted_run(aug, "photo", photo, rng, len(blob))
        rows.append(f"{row} {fill_text(fill)}")
        blob += np.asarray(out).tobytes()
    write(os.path.join(d, "augmix_fill.rgb"), bytes(blob))
    write(os.path.join(d, "augmix_fill.txt"), (
        "# augmix.txt's columns, then the fill (one value, or R,G,B)\n" + "\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    main()
