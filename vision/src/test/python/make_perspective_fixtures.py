#!/usr/bin/python3
"""Writes the parity fixtures of Warp.perspective / RandomPerspective with torchvision 0.14 and Pillow 9.4.

Run from the repository root with Debian's Python, after make_augment_fixtures.py (it reads that
script's input images):
    /usr/bin/python3 vision/src/test/python/make_perspective_fixtures.py
Writes augment/perspective_*.rgb (raw uint8 HWC RGB) and augment/perspective.txt: name, input,
width, height, interpolation, the four end corners (x:y, top-left, top-right, bottom-right,
bottom-left); the start corners are the image's, as RandomPerspective has them. Also the corners
RandomPerspective.get_params draws are bounded as checked in the Java test.
"""
import os
import numpy as np
from PIL import Image
from make_fixtures import ROOT, write


def main():
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    d = os.path.join(ROOT, "augment")
    inputs = {"photo": (32, 24), "flat": (32, 24), "square": (24, 24)}
    corners = [  # end corners as fractions of the distortion RandomPerspective allows, and odd ones
        lambda w, h: [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]],
        lambda w, h: [[3, 2], [w - 2, 4], [w - 5, h - 1], [1, h - 3]],
        lambda w, h: [[7, 5], [w - 8, 1], [w - 1, h - 6], [4, h - 2]],
        lambda w, h: [[0, 6], [w - 1, 0], [w - 3, h - 1], [2, h - 4]],
    ]
    lines = []
    for name, (w, h) in inputs.items():
        img = Image.frombytes("RGB", (w, h), open(os.path.join(d, f"{name}.rgb"), "rb").read())
        start = [[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]
        for k, c in enumerate(corners):
            end = c(w, h)
            for interp, mode in [("nearest", T.InterpolationMode.NEAREST), ("bilinear", T.InterpolationMode.BILINEAR)]:
                out = F.perspective(img, start, end, mode)
                case = f"perspective_{k}_{interp}_{name}"
                write(os.path.join(d, case + ".rgb"), np.asarray(out.convert("RGB")).tobytes())
                lines.append(f"{case} {name} {w} {h} {interp} " + " ".join(f"{x}:{y}" for x, y in end))
    write(os.path.join(d, "perspective.txt"),
          ("# name input width height interpolation end corners (tl tr br bl)\n" + "\n".join(lines) + "\n").encode())


if __name__ == "__main__":
    main()
