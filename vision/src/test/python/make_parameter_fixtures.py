#!/usr/bin/python3
"""Writes the fixtures of torchvision 0.14 parameter forms Stoker takes beyond the other scripts'.

Run from the repository root with Debian's Python, after make_augment_fixtures.py (it reads
photo.rgb, 32x24):
    /usr/bin/python3 vision/src/test/python/make_parameter_fixtures.py

blur_rect.txt / .rgb: F.gaussian_blur(pil_image, [kx, ky], [sigma, sigma]) with a kernel that is
not square, both ways round (GaussianBlur's kernel_size=(kx, ky)).
resize_max.txt: torchvision's output size of Resize(size, max_size=m) for image sizes around the cap.
"""
import os
import numpy as np
from PIL import Image
from make_fixtures import ROOT, write


def main():
    from torchvision.transforms import functional as F
    d = os.path.join(ROOT, "augment")
    img = Image.frombytes("RGB", (32, 24), open(os.path.join(d, "photo.rgb"), "rb").read())
    rows, blob = [], bytearray()
    for kx, ky, sigma in ((5, 3, 1.2), (3, 7, 0.8), (9, 1, 2.0)):
        out = F.gaussian_blur(img, [kx, ky], [sigma, sigma])
        rows.append(f"{kx} {ky} {sigma!r} {len(blob)}")
        blob += np.asarray(out).tobytes()
    write(os.path.join(d, "blur_rect.rgb"), bytes(blob))
    write(os.path.join(d, "blur_rect.txt"), ("# on photo.rgb (32x24): kx ky sigma offset\n" + "\n".join(rows) + "\n").encode())

    from torchvision.transforms.functional import _compute_resized_output_size
    rows = []
    rng = np.random.default_rng(19)
    for _ in range(40):
        w, h = (int(v) for v in rng.integers(16, 3000, size=2))
        size = int(rng.integers(8, 400))
        max_size = size + int(rng.integers(1, 600))
        out_h, out_w = _compute_resized_output_size((h, w), [size], max_size)
        rows.append(f"{w} {h} {size} {max_size} {out_w} {out_h}")
    write(os.path.join(d, "resize_max.txt"), ("# width height size max_size out_width out_height\n"
                                              + "\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    main()
