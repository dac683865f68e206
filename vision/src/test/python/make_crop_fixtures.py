#!/usr/bin/python3
"""Writes the parity fixtures of RandomCrop (dev.stoker.vision.transform.RandomCrop) and
RandomVerticalFlip with torchvision 0.14, its draws scripted.

Run from the repository root with Debian's Python, after make_augment_fixtures.py (it reads
photo.rgb, 32x24):
    /usr/bin/python3 vision/src/test/python/make_crop_fixtures.py

random_crop.txt / .rgb: T.RandomCrop(size, padding, pad_if_needed)(pil_image) with torch.randint
answering the top and the left given (chosen at random in range), for: no padding, a number, two
and four values of padding, pad_if_needed on a crop larger than the image, and a crop the size of
the padded image (no draw); then F.vflip of the image as the last row.
"""
import os
import numpy as np
import torch
from PIL import Image
from make_fixtures import ROOT, write


def main():
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    d = os.path.join(ROOT, "augment")
    img = Image.frombytes("RGB", (32, 24), open(os.path.join(d, "photo.rgb"), "rb").read())
    rng = np.random.default_rng(23)
    # (height, width, padding as torchvision takes it, pad_if_needed)
    cases = [(16, 16, None, False), (20, 28, 4, False), (24, 32, [3, 5], False), (18, 22, [1, 2, 3, 4], False),
             (30, 40, None, True), (26, 30, [2, 0], True), (24, 32, None, False), (28, 36, 2, False)]
    rows, blob = [], bytearray()
    real = torch.randint
    for h, w, padding, pad_if_needed in cases:
        crop = T.RandomCrop((h, w), padding=padding, pad_if_needed=pad_if_needed)
        answers = []

        def scripted(low, high, size=None, **kw):
            v = int(rng.integers(low, high))
            answers.append(v)
            return torch.tensor([v])
        torch.randint = scripted
        try:
            out = crop(img)
        finally:
            torch.randint = real
        top, left = answers if answers else (-1, -1)
        pad = padding if isinstance(padding, list) else ([] if padding is None else [padding])
        pad_text = ",".join(str(p) for p in pad) if pad else "-"
        rows.append(f"{h} {w} {pad_text} {int(pad_if_needed)} {top} {left} {len(blob)}")
        blob += np.asarray(out).tobytes()
    rows.append(f"vflip 0 0 0 0 {len(blob)}")
    blob += np.asarray(F.vflip(img)).tobytes()
    write(os.path.join(d, "random_crop.rgb"), bytes(blob))
    write(os.path.join(d, "random_crop.txt"), (
        "# on photo.rgb (32x24): height width padding(- or 1, 2, 4 values) pad_if_needed top left offset\n"
        "# (top and left -1: no draw); the last row: F.vflip(img)\n" + "\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    main()
