#!/usr/bin/python3
"""Writes the vision module's test fixtures with the real tools: Pillow (9.4) and torchvision (0.14).

Run from the repository root with Debian's Python (apt-get install -y python3-pil python3-torchvision):
    /usr/bin/python3 vision/src/test/python/make_fixtures.py
Everything goes to vision/src/test/resources/dev/stoker/vision/{decode,formats,resize,torchvision}/;
name folders to write only those (e.g. `make_fixtures.py formats`).
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


def plain_pnm(magic, a, maxval, comment=False):
    """PIL writes only the binary PNM forms: the plain (ASCII) ones are written here, PIL reads them back.
    a: H x W (grey, or 0/1 for P1 where 1 is black) or H x W x 3 samples."""
    a = np.asarray(a).astype(np.int64)
    head = f"{magic}\n" + ("# written by make_fixtures.py\n" if comment else "") + f"{a.shape[1]} {a.shape[0]}\n"
    if magic == "P1":  # no maxval, no spaces needed between the digits
        return (head + "\n".join("".join(str(v) for v in row) for row in a) + "\n").encode()
    rows = [" ".join(str(v) for v in row.reshape(-1)) for row in a]
    if comment:
        rows.insert(1, "# a comment between the rows")
    return (head + f"{maxval}\n" + "\n".join(rows) + "\n").encode()


def binary_pnm(magic, size, maxval, samples):
    """A binary PNM with any maxval (PIL writes only 255 and 65535): samples big-endian when maxval > 255."""
    dtype = ">u2" if maxval > 255 else "u1"
    return f"{magic}\n{size[0]} {size[1]}\n{maxval}\n".encode() + np.asarray(samples).astype(dtype).tobytes()


def png16_rgb(a):
    """A 16-bit RGB PNG (PIL writes none), by hand: PIL reads it as RGB from the high bytes."""
    import struct, zlib
    h, w = a.shape[:2]
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + np.asarray(row).astype(">u2").tobytes() for row in a)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def format_fixtures():
    """WebP, PNM and the PNG and TIFF depths that differ from 8-bit RGB, each against PIL's convert("RGB")."""
    d = os.path.join(ROOT, "formats")
    rng = np.random.default_rng(11)
    # 32 x 24 keeps the files small; lossy WebP gets 64 x 48, for room between its colour edges.
    img = picture(32, 24, 7)
    alpha = Image.fromarray(np.tile(np.linspace(0, 255, 32).astype(np.uint8), (24, 1)), "L")  # 0 (clear) to 255
    rgba = Image.merge("RGBA", (*img.split(), alpha))
    photo = picture(64, 48, 7)
    photo_rgba = Image.merge("RGBA", (*photo.split(), alpha.resize((64, 48))))
    grey = img.convert("L")
    # 16-bit grey spanning the whole range, with the low values (0..255) that PIL keeps as they are.
    g16 = np.concatenate([rng.integers(0, 256, size=(12, 32)), rng.integers(0, 65536, size=(12, 32))]).astype(np.uint16)
    small = picture(9, 7, 8)

    def save(im, fmt, **kw):
        buf = io.BytesIO(); im.save(buf, fmt, **kw); return buf.getvalue()

    # name: (bytes, tolerance). Tolerance 0: lossless, compared exactly. Lossy WebP: libwebp is
    # PIL's own decoder (exact there); the pure-Java fallback rounds its YUV to RGB differently.
    files = {
        "lossy.webp": (save(photo, "WEBP", quality=80), "lossy"),
        "lossy_odd_37x23.webp": (save(picture(37, 23, 9), "WEBP", quality=60), "lossy"),
        "lossy_alpha.webp": (save(photo_rgba, "WEBP", quality=80), "lossy"),
        "lossless.webp": (save(img, "WEBP", lossless=True), "exact"),
        "lossless_alpha.webp": (save(rgba, "WEBP", lossless=True, exact=True), "exact"),
        "p6.ppm": (save(img, "PPM"), "exact"),
        "p6_rgba_saved.ppm": (save(rgba, "PPM"), "exact"),
        "p3.ppm": (plain_pnm("P3", np.asarray(small), 255, comment=True), "exact"),
        "p3_maxval_1000.ppm": (plain_pnm("P3", rng.integers(0, 1001, size=(7, 9, 3)), 1000), "exact"),
        "p6_maxval_100.ppm": (binary_pnm("P6", (32, 24), 100, rng.integers(0, 101, size=(24, 32, 3))), "exact"),
        "p6_maxval_200.ppm": (binary_pnm("P6", (32, 24), 200, rng.integers(0, 201, size=(24, 32, 3))), "exact"),
        "p6_maxval_1000.ppm": (binary_pnm("P6", (32, 24), 1000, rng.integers(0, 1001, size=(24, 32, 3))), "exact"),
        "p6_16bit.ppm": (binary_pnm("P6", (32, 24), 65535, rng.integers(0, 65536, size=(24, 32, 3))), "exact"),
        "p5.pgm": (save(grey, "PPM"), "exact"),
        "p5_16bit.pgm": (save(Image.fromarray(g16.astype(np.int32), "I"), "PPM"), "exact"),
        "p5_maxval_1000.pgm": (binary_pnm("P5", (32, 24), 1000, np.concatenate([rng.integers(0, 4, size=(12, 32)), rng.integers(0, 1001, size=(12, 32))])), "exact"),
        "p5_maxval_15.pgm": (binary_pnm("P5", (32, 24), 15, rng.integers(0, 16, size=(24, 32))), "exact"),
        "p2.pgm": (plain_pnm("P2", np.asarray(small.convert("L")), 255, comment=True), "exact"),
        "p2_maxval_1000.pgm": (plain_pnm("P2", rng.integers(0, 1001, size=(7, 9)), 1000), "exact"),
        "p4.pbm": (save(grey.point(lambda v: 255 if v > 128 else 0).convert("1"), "PPM"), "exact"),
        "p4_odd_37x23.pbm": (save(picture(37, 23, 10).convert("1"), "PPM"), "exact"),
        "p1.pbm": (plain_pnm("P1", rng.integers(0, 2, size=(7, 9)), 1), "exact"),
        "gray16.png": (save(Image.fromarray(g16), "PNG"), "exact"),
        "gray1.png": (save(grey.convert("1"), "PNG"), "exact"),
        "gray_alpha.png": (save(Image.merge("LA", (grey, alpha)), "PNG"), "exact"),
        "gray16.tif": (save(Image.fromarray(g16), "TIFF"), "exact"),
        # The other extensions of ImageFolder's list (.bmp, .tif, .png) in the modes PIL writes.
        "rgb16.png": (png16_rgb(rng.integers(0, 65536, size=(24, 32, 3))), "exact"),
        "palette.png": (save(img.quantize(64), "PNG"), "exact"),
        "palette_trns.png": (save(img.quantize(64), "PNG", transparency=3), "exact"),
        "rgba.png": (save(rgba, "PNG"), "exact"),
        "rgb.bmp": (save(img, "BMP"), "exact"),
        "rgba.bmp": (save(rgba, "BMP"), "exact"),
        "grey.bmp": (save(grey, "BMP"), "exact"),
        "palette.bmp": (save(img.quantize(64), "BMP"), "exact"),
        "bilevel.bmp": (save(grey.convert("1"), "BMP"), "exact"),
        "rgb.tif": (save(img, "TIFF"), "exact"),
        "rgb_lzw.tif": (save(img, "TIFF", compression="tiff_lzw"), "exact"),
        "rgb_deflate.tif": (save(img, "TIFF", compression="tiff_adobe_deflate"), "exact"),
        "rgba.tif": (save(rgba, "TIFF"), "exact"),
        "grey.tif": (save(grey, "TIFF"), "exact"),
        "bilevel.tif": (save(grey.convert("1"), "TIFF"), "exact"),
        "cmyk.tif": (save(img.convert("CMYK"), "TIFF"), "exact"),
        # PIL writes a TIFF colour map as v * 256 and reads its high byte; the JDK scales it by
        # 255 / 65535, one level less (exact for libtiff's v * 257).
        "palette.tif": (save(img.quantize(64), "TIFF"), "within1"),
    }
    cases = []  # name width height exact|lossy (of the PIL-decoded .rgb), or - - when PIL refuses it
    for name, (data, kind) in sorted(files.items()):
        write(os.path.join(d, name), data)
        im = Image.open(io.BytesIO(data)); im.load()
        write(os.path.join(d, name.replace(".", "_") + ".rgb"), decoded_rgb(data))
        cases.append(f"{name} {im.size[0]} {im.size[1]} {kind}  # PIL mode {im.mode}")
    # Damaged files PIL refuses: a WebP cut short, a RIFF WEBP header over junk, PNM cut short.
    broken = {
        "truncated.webp": files["lossy.webp"][0][: len(files["lossy.webp"][0]) // 2],
        "truncated_lossless.webp": files["lossless.webp"][0][: len(files["lossless.webp"][0]) // 2],
        "junk.webp": files["lossy.webp"][0][:16] + rng.integers(0, 256, size=300, dtype=np.uint8).tobytes(),
        "truncated.ppm": files["p6.ppm"][0][: len(files["p6.ppm"][0]) // 2],
        "truncated_16bit.pgm": files["p5_16bit.pgm"][0][:-1],
        "header_only.pgm": b"P5\n64 48\n255\n",
        "p2_value_over_maxval.pgm": b"P2\n2 1\n100\n7 101\n",
    }
    for name, data in sorted(broken.items()):
        write(os.path.join(d, name), data)
        try:
            Image.open(io.BytesIO(data)).convert("RGB")
            raise SystemExit(f"PIL reads {name}: it is not a damaged file")
        except SystemExit:
            raise
        except Exception as e:
            cases.append(f"{name} - - -  # PIL: {type(e).__name__}: {e}")
    # Animated WebP: PIL gives the first frame, as libwebpdemux does; without libwebp it is refused.
    frames = [picture(32, 24, 20 + i) for i in range(3)]
    for name, lossless in [("animated_lossy.webp", False), ("animated_lossless.webp", True)]:
        data = save(frames[0], "WEBP", save_all=True, append_images=frames[1:], duration=100, lossless=lossless, quality=80)
        write(os.path.join(d, name), data)
        write(os.path.join(d, name.replace(".", "_") + ".rgb"), decoded_rgb(data))
        cases.append(f"{name} 32 24 animated  # PIL: the first frame")
    write(os.path.join(d, "cases.txt"), ("\n".join(cases) + "\n").encode())


if __name__ == "__main__":
    import sys
    from make_augment_fixtures import augment_fixtures
    makers = {"decode": decode_fixtures, "formats": format_fixtures, "resize": resize_fixtures,
              "torchvision": torchvision_fixtures, "augment": augment_fixtures}
    for name in sys.argv[1:] or makers:
        makers[name]()
