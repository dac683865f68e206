#!/usr/bin/env python3
"""Writes the numeric WebDataset shards of TarTensorStreamTest with Python's tarfile and NumPy.

Run from anywhere:  python3 formats/src/test/python/make_tensor_shards.py
Writes formats/src/test/resources/tar/tensors-0.tar, tensors-1.tar (12 good samples each) and
tensors-bad.tar (good samples with bad ones between them). Deterministic: mtime 0, values from
formulas, so re-running it gives the same bytes.

Sample i (key "%06d" % i) holds, as the test recomputes them:
  x.npy   float32 (2, 3): (arange(6).reshape(2, 3) + 10 i) / 4, written four ways by i % 4:
          np.save '<f4' (format 1.0), np.save '>f4' (big-endian), format 2.0, and a hand-made
          format 1.0 header padded to 16 bytes with spaces (as NumPy before 1.14 wrote it)
  y.npy   int16 (3,): [-300 i, i, 7], '>i2' for odd i, '<i2' for even
  t.npy   float64 0-d: i + 0.5, '>f8' when i % 3 == 0
  cls     (7 i) % 13 - 4 as decimal text, with whitespace around it for some i
  emb     float16 (4,): (arange(4) + i) / 2, raw little-endian bytes (a.astype('<f2').tobytes())
"""
import io
import os
import tarfile

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "tar")


def npy(a, version=None):
    f = io.BytesIO()
    if version is None:
        np.save(f, a)
    else:
        np.lib.format.write_array(f, a, version=version)
    return f.getvalue()


def old_v1(a):
    """A format 1.0 file whose header is padded to 16 bytes, not 64."""
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (a.dtype.str, repr(a.shape))
    body = d.encode("latin1")
    body += b" " * ((16 - (10 + len(body) + 1) % 16) % 16) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(body).to_bytes(2, "little") + body + a.tobytes()


def x_of(i, how):
    a = ((np.arange(6).reshape(2, 3) + 10 * i) / 4).astype("<f4")
    if how == 0:
        return npy(a)
    if how == 1:
        return npy(a.astype(">f4"))
    if how == 2:
        return npy(a, version=(2, 0))
    return old_v1(a)


def sample(i):
    label = (7 * i) % 13 - 4
    cls = [str(label), str(label) + "\n", "  %d\t\n" % label][i % 3]
    return [
        ("x.npy", x_of(i, i % 4)),
        ("y.npy", npy(np.array([-300 * i, i, 7], dtype=">i2" if i % 2 else "<i2"))),
        ("t.npy", npy(np.array(i + 0.5, dtype=">f8" if i % 3 == 0 else "<f8"))),
        ("cls", cls.encode("ascii")),
        ("emb", ((np.arange(4) + i) / 2).astype("<f2").tobytes()),
    ]


def write(name, samples):
    with tarfile.open(os.path.join(OUT, name), "w", format=tarfile.USTAR_FORMAT) as tf:
        for key, members in samples:
            for ext, data in members:
                ti = tarfile.TarInfo("%s.%s" % (key, ext))
                ti.size = len(data)
                ti.mtime = 0
                ti.mode = 0o644
                tf.addfile(ti, io.BytesIO(data))


def replaced(i, ext, data):
    """Sample i with member ext replaced by data (or removed when data is None)."""
    out = []
    for e, d in sample(i):
        if e != ext:
            out.append((e, d))
        elif data is not None:
            out.append((e, data))
    return ("%06d" % i, out)


def main():
    os.makedirs(OUT, exist_ok=True)
    write("tensors-0.tar", [("%06d" % i, sample(i)) for i in range(0, 12)])
    write("tensors-1.tar", [("%06d" % i, sample(i)) for i in range(12, 24)])
    good = lambda i: ("%06d" % i, sample(i))
    f4 = ((np.arange(6).reshape(2, 3)) / 4)
    write("tensors-bad.tar", [
        good(100),
        replaced(101, "cls", None),                                   # missing member
        replaced(102, "x.npy", npy(f4.astype("<f8"))),                # float64, not float32
        replaced(103, "x.npy", npy(f4.astype("<f4").reshape(3, 2))),  # shape (3, 2), not (2, 3)
        replaced(104, "cls", b"seven\n"),                             # not a number
        replaced(105, "emb", b"\x00" * 6),                            # 6 bytes, not 8
        replaced(106, "x.npy", npy(f4.astype("<f4"))[:-5]),          # data cut short
        replaced(107, "cls", b"99999999999999999999"),                # past i64
        good(108),
    ])


if __name__ == "__main__":
    main()
