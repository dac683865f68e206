#!/usr/bin/python3
"""Writes the parity fixtures of the PIL-path warps' fill (dev.stoker.vision.augment.Warp with a
Fill) with torchvision 0.14 / Pillow.

Run from the repository root with Debian's Python, after make_augmix_fill_fixtures.py (it reads
that script's augmix_fill_in.rgb, 20x16):
    /usr/bin/python3 vision/src/test/python/make_warp_fill_fixtures.py

warp_fill.txt / .rgb: torchvision's functional warps on a PIL image with a fill, which
_parse_fill turns into Pillow's fillcolor (each value int()-truncated): rotate (a non-square
image, so 90 degrees is a warp too), affine through the 16.16 fixed-point path, a translation
(Pillow's scale-only path), perspective, each nearest and bilinear, and the auto-augment ShearX
through _apply_op; fills 0, 127.9 (truncated to 127) and [10, 200, 255].
warp_center.txt / .rgb: F.rotate and F.affine about a given center (RandomRotation's and
RandomAffine's center), nearest and bilinear; 180 degrees about a point is a warp, not a transpose.
"""
import os
import numpy as np
from PIL import Image
from make_fixtures import ROOT, write

FILLS = [0, 127.9, [10, 200, 255]]
CORNERS = [[0, 0], [19, 0], [19, 15], [0, 15]]
MOVED = [[3, 2], [17, 1], [18, 13], [1, 15]]


def fill_text(fill):
    return ",".join(repr(float(v)) for v in (fill if isinstance(fill, list) else [fill]))


def main():
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    from torchvision.transforms.autoaugment import _apply_op
    d = os.path.join(ROOT, "augment")
    img = Image.frombytes("RGB", (20, 16), open(os.path.join(d, "augmix_fill_in.rgb"), "rb").read())
    cases = {
        "rotate30": lambda i, m, f: F.rotate(i, 30.0, m, fill=f),
        "rotate90": lambda i, m, f: F.rotate(i, 90.0, m, fill=f),
        "affine": lambda i, m, f: F.affine(i, 15.0, [3, -2], 1.1, [5.0, 3.0], m, fill=f),
        "translate": lambda i, m, f: F.affine(i, 0.0, [5, -3], 1.0, [0.0, 0.0], m, fill=f),
        "perspective": lambda i, m, f: F.perspective(i, CORNERS, MOVED, m, fill=f),
        "shearx": lambda i, m, f: _apply_op(i, "ShearX", 0.3, m, f),
    }
    modes = {"nearest": T.InterpolationMode.NEAREST, "bilinear": T.InterpolationMode.BILINEAR}
    rows, blob = [], bytearray()
    for fill in FILLS:
        for name, fn in cases.items():
            for interp, mode in modes.items():
                out = fn(img, mode, fill)
                rows.append(f"{name} {interp} {fill_text(fill)} {len(blob)}")
                blob += np.asarray(out).tobytes()
    write(os.path.join(d, "warp_fill.rgb"), bytes(blob))
    write(os.path.join(d, "warp_fill.txt"), ("# on augmix_fill_in.rgb (20x16): warp interpolation fill offset\n"
                                             + "\n".join(rows) + "\n").encode())

    centred = {
        "rotate30": lambda i, m, c: F.rotate(i, 30.0, m, center=c),
        "rotate180": lambda i, m, c: F.rotate(i, 180.0, m, center=c),
        "rotate0": lambda i, m, c: F.rotate(i, 0.0, m, center=c),
        "affine": lambda i, m, c: F.affine(i, 15.0, [3, -2], 1.1, [5.0, 3.0], m, center=c),
    }
    rows, blob = [], bytearray()
    for center in ([0, 0], [5, 7], [10, 8], [19, 3]):
        for name, fn in centred.items():
            for interp, mode in modes.items():
                out = fn(img, mode, center)
                rows.append(f"{name} {interp} {center[0]} {center[1]} {len(blob)}")
                blob += np.asarray(out).tobytes()
    write(os.path.join(d, "warp_center.rgb"), bytes(blob))
    write(os.path.join(d, "warp_center.txt"), ("# on augmix_fill_in.rgb (20x16): warp interpolation x y offset\n"
                                               + "\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    main()
