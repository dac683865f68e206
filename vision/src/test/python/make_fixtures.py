#!/usr/bin/python3
"""Writes the vision module's test fixtures with the real tools: Pillow (9.4) and torchvision (0.14).

Run from the repository root with Debian's Python (apt-get install -y python3-pil python3-torchvision):
    /usr/bin/python3 vision/src/test/python/make_fixtures.py
Everything goes to vision/src/test/resources/dev/stoker/vision/{decode,resize,torchvision}/.
Raw pixel files (.rgb) are uint8 HWC RGB without a header; .f32 files are little-endian float32
CHW; each folder's cases.txt lists the cases with their sizes. Deterministic (seeded).
"""
import io, os
import numpy as np
from PIL import Image, ImageDraw

ROOT = os.path.join(os.path.dirname(__file__), "..", "resources", "dev", "stoker", "vision")


def picture(w, h, seed):
    """A gradient with a few shapes and some noise, like the W3 images, but small."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.empty((h, w, 3), np.float32)
    for c in range(3):
        a, b = rng.uniform(-3, 3, size=2)
        base[..., c] = 128 + a * (xx - w / 2) + b * (yy - h / 2)
    img = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB")
    d = ImageDraw.Draw(img)
    for _ in range(4):
        x0, x1 = sorted(rng.integers(0, w, size=2)); y0, y1 = sorted(rng.integers(0, h, size=2))
        d.ellipse([int(x0), int(y0), int(x1), int(y1)], fill=tuple(int(v) for v in rng.integers(0, 256, size=3)))
    arr = np.asarray(img).astype(np.int16) + rng.normal(0, 6.0, size=(h, w, 3)).astype(np.int16)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def jpeg_bytes(img, **kw):
    buf = io.BytesIO(); img.save(buf, "JPEG", **kw); return buf.getvalue()


def png_bytes(img):
    buf = io.BytesIO(); img.save(buf, "PNG"); return buf.getvalue()


def decoded_rgb(data):
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).tobytes()


def decode_fixtures():
    d = os.path.join(ROOT, "decode")
    cases = []  # name width height (of the PIL-decoded .rgb, or - - when PIL fails)
    img = picture(64, 48, 1)
    files = {
        "rgb420_q90.jpg": jpeg_bytes(img, quality=90),
        "rgb444_q95.jpg": jpeg_bytes(img, quality=95, subsampling=0),
        "odd_37x23.jpg": jpeg_bytes(picture(37, 23, 2), quality=90),
        "progressive.jpg": jpeg_bytes(img, quality=90, progressive=True),
        "grayscale.jpg": jpeg_bytes(img.convert("L"), quality=90),
        "cmyk.jpg": jpeg_bytes(img.convert("CMYK"), quality=90),
        "png_named.jpg": png_bytes(img),
        "rgba_png_named.jpg": png_bytes(Image.merge("RGBA", (*img.split(), img.convert("L")))),
        "gray_png_named.jpg": png_bytes(img.convert("L")),
    }
    full = jpeg_bytes(img, quality=90)
    files["truncated.jpg"] = full[: len(full) // 2]
    files["empty.jpg"] = b""
    files["garbage.jpg"] = np.random.default_rng(3).integers(0, 256, size=300, dtype=np.uint8).tobytes()
    # A JPEG start marker followed by garbage: looks like a JPEG to a sniffer, is not one.
    files["soi_garbage.jpg"] = b"\xff\xd8\xff\xe0" + files["garbage.jpg"]
    for name, data in sorted(files.items()):
        write(os.path.join(d, name), data)
        try:
            im = Image.open(io.BytesIO(data)); im.load()
            raw = decoded_rgb(data)
            write(os.path.join(d, name[:-4] + ".rgb"), raw)
            cases.append(f"{name} {im.size[0]} {im.size[1]}")
        except Exception as e:  # PIL refuses it: no reference pixels
            cases.append(f"{name} - -  # PIL: {type(e).__name__}")
    # libjpeg's DCT scaling as PIL's draft asks for it: 1/2 of 64x48.
    im = Image.open(io.BytesIO(files["rgb420_q90.jpg"])); im.draft("RGB", (32, 24))
    write(os.path.join(d, "rgb420_q90_half.rgb"), np.asarray(im.convert("RGB")).tobytes())
    cases.append(f"rgb420_q90_half.rgb {im.size[0]} {im.size[1]}  # draft('RGB', (32, 24))")
    write(os.path.join(d, "cases.txt"), ("\n".join(cases) + "\n").encode())


def resize_fixtures():
    d = os.path.join(ROOT, "resize")
    src = picture(61, 47, 4)
    write(os.path.join(d, "source_61x47.rgb"), np.asarray(src).tobytes())
    # name out_w out_h crop_left crop_top crop_right crop_bottom: PIL crop(box) then resize BILINEAR
    cases = [
        ("down_32x24", 32, 24, (0, 0, 61, 47)),
        ("down_mixed_20x45", 20, 45, (0, 0, 61, 47)),
        ("up_90x70", 90, 70, (0, 0, 61, 47)),
        ("same_61x47", 61, 47, (0, 0, 61, 47)),
        ("tiny_7x5", 7, 5, (0, 0, 61, 47)),
        ("crop_down_24x24", 24, 24, (5, 3, 45, 40)),
        ("crop_up_50x50", 50, 50, (20, 10, 40, 30)),
        ("crop_edge_16x12", 16, 12, (30, 20, 61, 47)),
    ]
    lines = []
    for name, w, h, box in cases:
        out = src.crop(box).resize((w, h), Image.BILINEAR)
        write(os.path.join(d, name + ".rgb"), np.asarray(out).tobytes())
        lines.append(f"{name} {w} {h} {box[0]} {box[1]} {box[2]} {box[3]}")
    write(os.path.join(d, "cases.txt"), ("\n".join(lines) + "\n").encode())


def torchvision_fixtures():
    import torch
    from torchvision import transforms as T
    from torchvision.transforms import functional as F
    d = os.path.join(ROOT, "torchvision")
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    tail = T.Compose([T.ToTensor(), T.Normalize(mean, std)])
    jpg = jpeg_bytes(picture(80, 60, 5), quality=90)
    write(os.path.join(d, "photo_80x60.jpg"), jpg)
    img = Image.open(io.BytesIO(jpg)).convert("RGB")
    lines = []

    def save(name, t, what):
        write(os.path.join(d, name + ".f32"), t.contiguous().numpy().astype("<f4").tobytes())
        lines.append(f"{name} {t.shape[0]} {t.shape[1]} {t.shape[2]} {what}")

    # eval: Resize(shorter side) + CenterCrop + ToTensor + Normalize
    save("eval_40_32", tail(T.CenterCrop(32)(T.Resize(40)(img))), "resize 40 centercrop 32")
    save("eval_70_64", tail(T.CenterCrop(64)(T.Resize(70)(img))), "resize 70 centercrop 64")
    # CenterCrop larger than the image pads with zeros (before Normalize)
    save("centercrop_pad_96x40", tail(T.CenterCrop((40, 96))(img)), "centercrop h 40 w 96")
    # RandomResizedCrop's work for given crop boxes (i, j, h, w), then maybe a flip
    for i, j, h, w, flip in [(5, 7, 40, 50, 0), (0, 0, 60, 80, 1), (30, 60, 12, 9, 0), (10, 20, 33, 27, 1)]:
        t = F.resized_crop(img, i, j, h, w, [32, 32], T.InterpolationMode.BILINEAR)
        if flip:
            t = F.hflip(t)
        save(f"rrc_{i}_{j}_{h}_{w}_{flip}", tail(t), f"crop top {i} left {j} height {h} width {w} flip {flip} size 32")
    write(os.path.join(d, "cases.txt"), ("\n".join(lines) + "\n").encode())

    # RandomResizedCrop.get_params when no attempt fits (scale above 1): the fallback is deterministic.
    rows = []
    for (W, H) in [(100, 100), (400, 100), (100, 400), (500, 375), (37, 23), (23, 37), (640, 480), (130, 100)]:
        for ratio in [(3 / 4, 4 / 3), (1.0, 1.0), (2.0, 3.0)]:
            i, j, h, w = T.RandomResizedCrop.get_params(Image.new("RGB", (W, H)), [1.5, 2.0], list(ratio))
            rows.append(f"{W} {H} {ratio[0]!r} {ratio[1]!r} {i} {j} {h} {w}")
    write(os.path.join(d, "rrc_fallback.txt"), ("\n".join(rows) + "\n").encode())
    # Resize(size) output sizes (shorter side to size, the longer one truncated)
    rows = []
    for (W, H) in [(500, 375), (375, 500), (640, 480), (37, 23), (100, 100), (401, 299)]:
        for s in [256, 224, 32, 7]:
            ow, oh = T.Resize(s)(Image.new("RGB", (W, H))).size
            rows.append(f"{W} {H} {s} {ow} {oh}")
    write(os.path.join(d, "resize_sizes.txt"), ("\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    decode_fixtures()
    resize_fixtures()
    torchvision_fixtures()
