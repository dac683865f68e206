#!/usr/bin/python3
"""Writes the parity fixtures of the pixel ops (dev.stoker.vision.augment) with torchvision 0.14 and Pillow 9.4.

Run from the repository root with Debian's Python:
    /usr/bin/python3 vision/src/test/python/make_augment_fixtures.py
(or `make_fixtures.py augment`). Everything goes to vision/src/test/resources/dev/stoker/vision/augment/.
Each op is torchvision's functional form with its random parameters fixed, on a PIL image, as
the standard recipe applies colour ops (before ToTensor); erase is on the normalized tensor, as
RandomErasing is. Inputs and outputs are raw uint8 HWC RGB (.rgb), or little-endian float32 CHW
(.f32) for erase; cases.txt lists: name, input, op, arguments.
"""
import os
import numpy as np
from PIL import Image
from make_fixtures import ROOT, picture, write


def augment_fixtures():
    import torch
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    d = os.path.join(ROOT, "augment")
    photo = picture(32, 24, 19)
    # Flat areas, pure greys, black, white and saturated colours: the edge cases of HSV and the histograms.
    a = np.zeros((24, 32, 3), np.uint8)
    a[:, :8] = [[[0, 0, 0]]]
    a[:, 8:16] = [[[255, 255, 255]]]
    a[:, 16:24] = [[[128, 128, 128]]]
    a[:12, 24:] = [[[255, 0, 0]]]
    a[12:, 24:] = [[[10, 200, 90]]]
    a[::3, ::5] = [[[0, 255, 255]]]
    a[1::4, 2::7] = [[[250, 5, 128]]]
    flat = Image.fromarray(a, "RGB")
    low = Image.fromarray((np.asarray(picture(32, 24, 23)) // 4 + 60).astype(np.uint8), "RGB")  # narrow range
    square = photo.crop((4, 0, 28, 24))  # rotations by 90 degrees take Pillow's transpose path on a square
    inputs = {"photo": photo, "flat": flat, "low": low, "square": square}
    for name, img in inputs.items():
        write(os.path.join(d, f"{name}.rgb"), np.asarray(img).tobytes())
    lines = []

    def case(op, arg, fn, on=("photo", "flat", "low")):
        for name in on:
            img = inputs[name]
            out = fn(img)
            case_name = f"{op}_{arg}_{name}".replace("-", "m").replace(".", "p")
            write(os.path.join(d, case_name + ".rgb"), np.asarray(out.convert("RGB")).tobytes())
            lines.append(f"{case_name} {name} {img.width} {img.height} {op} {arg}")

    for f in [0.0, 0.5, 0.77, 1.0, 1.3, 1.9]:
        case("brightness", f, lambda i: F.adjust_brightness(i, f))
        case("contrast", f, lambda i: F.adjust_contrast(i, f))
        case("saturation", f, lambda i: F.adjust_saturation(i, f))
    for f in [0.0, 0.5, 0.99, 1.99, 2.0]:
        case("sharpness", f, lambda i: F.adjust_sharpness(i, f))
    for f in [-0.5, -0.27, -0.05, 0.0, 0.1, 0.33, 0.5]:
        case("hue", f, lambda i: F.adjust_hue(i, f))
    case("grayscale", 3, lambda i: F.rgb_to_grayscale(i, 3))
    case("invert", 0, F.invert)
    for t in [0.0, 128.0, 200.5, 255.0, 256.0]:
        case("solarize", t, lambda i: F.solarize(i, t))
    for b in [0, 1, 4, 7, 8]:
        case("posterize", b, lambda i: F.posterize(i, b))
    case("autocontrast", 0, F.autocontrast)
    case("equalize", 0, F.equalize)
    for k, s in [(3, 0.8), (5, 1.5), (7, 0.1), (9, 2.0), (23, 1.3)]:
        case("blur", f"{k}:{s}", lambda i: F.gaussian_blur(i, [k, k], [s, s]))
    # The auto-augment geometric ops, as TrivialAugmentWide calls them (NEAREST, fill None).
    import math
    nearest = T.InterpolationMode.NEAREST
    warps = ("photo", "flat", "square")
    for m in [0.0, 0.0330, 0.3, -0.5, 0.99, -0.99]:
        case("shearx", m, lambda i: F.affine(i, 0.0, [0, 0], 1.0, [math.degrees(math.atan(m)), 0.0], nearest,
                                             None, [0, 0]), warps)
        case("sheary", m, lambda i: F.affine(i, 0.0, [0, 0], 1.0, [0.0, math.degrees(math.atan(m))], nearest,
                                             None, [0, 0]), warps)
    for t in [0, 5, -12, 31]:
        case("translatex", t, lambda i: F.affine(i, 0.0, [t, 0], 1.0, [0.0, 0.0], nearest, None), warps)
        case("translatey", t, lambda i: F.affine(i, 0.0, [0, t], 1.0, [0.0, 0.0], nearest, None), warps)
    for a in [(10.0, 3, -2, 1.2, 5.0, 0.0), (-33.3, 0, 0, 0.8, 0.0, 0.0), (0.0, 0, 0, 1.5, 0.0, 0.0),
              (170.0, -4, 6, 1.0, -12.0, 7.5), (0.0, 2, 1, 1.0, 0.0, 20.0)]:
        case("affine", ":".join(str(v) for v in a),
             lambda i: F.affine(i, a[0], [a[1], a[2]], a[3], [a[4], a[5]], nearest, None), warps)
    for r in [4.5, -4.5, 30.0, 90.0, -90.0, 135.0, 180.0, -0.0]:
        case("rotate", r, lambda i: F.rotate(i, r, nearest), warps)
    # The same warps with bilinear, as torchvision's reference script runs TrivialAugmentWide.
    bilinear = T.InterpolationMode.BILINEAR
    for r in [4.5, -33.0, 90.0, 135.0]:
        case("rotatebilinear", r, lambda i: F.rotate(i, r, bilinear), warps)
    for m in [0.3, -0.99]:
        case("shearxbilinear", m, lambda i: F.affine(i, 0.0, [0, 0], 1.0, [math.degrees(math.atan(m)), 0.0],
                                                     bilinear, None, [0, 0]), warps)
    for t in [5, -12]:
        case("translateybilinear", t, lambda i: F.affine(i, 0.0, [0, t], 1.0, [0.0, 0.0], bilinear, None), warps)
    for a in [(10.0, 3, -2, 1.2, 5.0, 0.0), (170.0, -4, 6, 0.7, -12.0, 7.5)]:
        case("affinebilinear", ":".join(str(v) for v in a),
             lambda i: F.affine(i, a[0], [a[1], a[2]], a[3], [a[4], a[5]], bilinear, None), warps)
    write(os.path.join(d, "cases.txt"), ("# name input width height op argument\n" + "\n".join(lines) + "\n").encode())

    # F.erase on the normalized tensor (RandomErasing's work for given parameters).
    from torchvision import transforms as T
    t = T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])(T.ToTensor()(photo))
    write(os.path.join(d, "photo_normalized.f32"), t.numpy().astype("<f4").tobytes())
    rows = []
    for i, j, h, w, v in [(0, 0, 5, 7, 0.0), (3, 10, 20, 21, 0.0), (23, 31, 1, 1, -1.5)]:
        out = F.erase(t, i, j, h, w, torch.tensor([v]))
        write(os.path.join(d, f"erase_{i}_{j}_{h}_{w}.f32"), out.numpy().astype("<f4").tobytes())
        rows.append(f"erase_{i}_{j}_{h}_{w} {i} {j} {h} {w} {v}")
    write(os.path.join(d, "erase.txt"), ("# name top left height width value\n" + "\n".join(rows) + "\n").encode())

    # TrivialAugmentWide's magnitude tables: op bin magnitude (repr of the float32 value, as .item() gives it)
    from torchvision.transforms import autoaugment
    rows = []
    for bins in [31, 8]:
        space = autoaugment.TrivialAugmentWide(bins)._augmentation_space(bins)
        for op, (mags, signed) in space.items():
            if mags.ndim > 0:
                rows += [f"{bins} {op} {b} {float(mags[b].item())!r}" for b in range(bins)]
    write(os.path.join(d, "taw_magnitudes.txt"), ("# bins op bin magnitude\n" + "\n".join(rows) + "\n").encode())
    # AutoAugment's (10 bins) and RandAugment's (31) tables, for a 224 x 224 and a 32 x 24 (W x H) image
    rows = []
    for bins, space in [(10, autoaugment.AutoAugment()._augmentation_space), (31, autoaugment.RandAugment()._augmentation_space)]:
        for (w, h) in [(224, 224), (32, 24)]:
            for op, (mags, signed) in space(bins, (h, w)).items():
                if mags.ndim > 0:
                    rows += [f"{bins} {w} {h} {op} {b} {float(mags[b].item())!r}" for b in range(bins)]
    write(os.path.join(d, "policy_magnitudes.txt"), ("# bins width height op bin magnitude\n" + "\n".join(rows) + "\n").encode())

    # MixUp and CutMix as transforms.v2 computes them (0.14 has no v2: the same torch ops, written out),
    # for given lam and box: a batch of 4 (3, 6, 5) f32 images, labels (0, 2, 1, 2) of 3 classes.
    g = torch.Generator().manual_seed(3)
    x = torch.randn(4, 3, 6, 5, generator=g)
    y = torch.nn.functional.one_hot(torch.tensor([0, 2, 1, 2]), 3).float()
    write(os.path.join(d, "batch_images.f32"), x.numpy().astype("<f4").tobytes())
    lam = 0.3
    write(os.path.join(d, "mixup_0p3_images.f32"), x.roll(1, 0).mul_(1.0 - lam).add_(x.mul(lam)).numpy().astype("<f4").tobytes())
    write(os.path.join(d, "mixup_0p3_targets.f32"), y.roll(1, 0).mul_(1.0 - lam).add_(y.mul(lam)).numpy().astype("<f4").tobytes())
    x1, y1, x2, y2 = 1, 2, 4, 5
    out = x.clone()
    out[..., y1:y2, x1:x2] = x.roll(1, 0)[..., y1:y2, x1:x2]
    lam_adjusted = float(1.0 - (x2 - x1) * (y2 - y1) / (5 * 6))
    write(os.path.join(d, "cutmix_1_2_4_5_images.f32"), out.numpy().astype("<f4").tobytes())
    write(os.path.join(d, "cutmix_1_2_4_5_targets.f32"),
          y.roll(1, 0).mul_(1.0 - lam_adjusted).add_(y.mul(lam_adjusted)).numpy().astype("<f4").tobytes())


if __name__ == "__main__":
    augment_fixtures()
