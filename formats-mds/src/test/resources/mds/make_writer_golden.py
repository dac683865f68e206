#!/usr/bin/python3
"""Writes writer-golden/: 20 samples over every encoding MdsWriter takes, by MosaicML Streaming's own
MDSWriter, for MdsWriterTest, which writes the same samples and expects the same bytes.

Run once with mosaicml-streaming on the path (here: the repository at commit 89e7bb9, with stand-ins for
the modules it imports but does not use when writing, because PyPI was unreachable):
  python3 make_writer_golden.py            # from this folder; tiny.jpg is a 4x3 JPEG made by PIL
"""
import os, shutil
import numpy as np
import PIL.Image
from streaming.base.format.mds.writer import MDSWriter

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "writer-golden")
shutil.rmtree(out, ignore_errors=True)
jpg_path = os.path.join(here, "tiny.jpg")
if not os.path.exists(jpg_path):
    PIL.Image.new("RGB", (4, 3), (200, 10, 10)).save(jpg_path, quality=90)
jpg = open(jpg_path, "rb").read()
img = PIL.Image.open(jpg_path)  # JPEG encoding of a file-backed image keeps the file's bytes
cols = {"i": "int", "s": "str", "f": "float32", "h": "float16", "u": "uint16", "b": "bytes",
        "fixed": "ndarray:float32:2,3", "dyn": "ndarray", "dt": "ndarray:int64", "j": "json",
        "l": "list[jpeg]", "ja": "jpeg_array"}
with MDSWriter(out=out, columns=cols, hashes=["md5", "sha1"], size_limit=6000) as w:
    for k in range(20):
        fixed = np.array([k + e / 10.0 for e in range(6)], np.float32).reshape(2, 3)
        rows, width = k % 3 + 1, 300 * (k % 2) + 2  # odd k: a dimension above 255 (u16 shape)
        dyn = (np.arange(rows * width) % 100).astype(np.int16 if k % 2 == 0 else np.uint8).reshape(rows, width)
        dt = -np.arange(k + 1, dtype=np.int64) * 1000000000000
        w.write({"i": k * 1_000_000_007 - 5, "s": "h\u00e9llo %d" % k, "f": k * 0.5, "h": k * 0.25,
                 "u": 65000 + k, "b": bytes([k, 0, 255]), "fixed": fixed, "dyn": dyn, "dt": dt,
                 "j": {"k": k}, "l": [img, img], "ja": [jpg]})
