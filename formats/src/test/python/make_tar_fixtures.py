#!/usr/bin/env python3
"""Writes the small tar fixtures under src/test/resources/tar with Python's tarfile.

Run from the formats module:  python3 src/test/python/make_tar_fixtures.py
Output is deterministic (mtime 0, fixed contents), so re-running it gives the same bytes.
"""
import io
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

OUT = os.path.join(os.path.dirname(__file__), "..", "resources", "tar")


def info(name, size, type_=tarfile.REGTYPE):
    ti = tarfile.TarInfo(name)
    ti.size = size
    ti.mtime = 0
    ti.mode = 0o644
    ti.type = type_
    return ti


def add(tf, name, data):
    tf.addfile(info(name, len(data)), io.BytesIO(data))


def write(name, fmt, members):
    path = os.path.join(OUT, name)
    with tarfile.open(path, "w", format=fmt) as tf:
        for m in members:
            if m[0] == "dir":
                tf.addfile(info(m[1], 0, tarfile.DIRTYPE))
            else:
                add(tf, m[0], m[1])
    return path


LONG = "nested/" + "d" * 60 + "/" + "sample_with_a_very_long_name_" + "x" * 90 + ".seg.png"

SAMPLES = [
    ("000000.jpg", b"\xff\xd8jpeg-zero\xff\xd9"),
    ("000000.cls", b"3"),
    ("000001.jpg", bytes(range(256)) * 3),  # 768 bytes: crosses a block boundary
    ("000001.cls", b"7"),
    ("000001.json", b'{"caption": "two cats"}'),
    ("000002.txt", b""),  # an empty member
    ("000002.cls", b"0"),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    # plain ustar with a directory member and multi-member samples
    write("ustar.tar", tarfile.USTAR_FORMAT, [("dir", "000000")] + SAMPLES)
    # pax: a name too long for ustar (path record) and a non-ASCII name
    write("pax.tar", tarfile.PAX_FORMAT, SAMPLES[:2] + [(LONG, b"long-pax"), ("caf\u00e9.txt", b"accent")])
    # GNU: the long name as a type-L member
    write("gnu.tar", tarfile.GNU_FORMAT, SAMPLES[:2] + [(LONG, b"long-gnu"), ("000009.cls", b"9")])

    # the same kind of content written by GNU tar itself (directories, a long name), if it is here
    if shutil.which("tar"):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, os.path.dirname(LONG)))
            for name, data in SAMPLES[:4] + [(LONG, b"long-gnutar")]:
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
            subprocess.run(["tar", "--format=gnu", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner",
                            "--sort=name", "-cf", os.path.abspath(os.path.join(OUT, "gnutar.tar")), "-C", tmp, "."],
                           check=True)

    good = open(os.path.join(OUT, "ustar.tar"), "rb").read()
    # layout: directory header 0, 000000.jpg header 512 (data 1024), 000000.cls header 1536 (data 2048),
    # 000001.jpg header 2560 (768 bytes of data at 3072)
    # truncated 300 bytes into the data of 000001.jpg
    open(os.path.join(OUT, "truncated.tar"), "wb").write(good[:3072 + 300])
    # truncated 200 bytes into the header of 000000.cls
    open(os.path.join(OUT, "truncated_header.tar"), "wb").write(good[:1536 + 200])
    # a flipped byte in the name of the second header (offset 512) breaks its checksum
    bad = bytearray(good)
    bad[512 + 3] ^= 0x01
    open(os.path.join(OUT, "bad_checksum.tar"), "wb").write(bytes(bad))
    # the size field of the second header made huge (base-256, 2^62), checksum fixed up
    huge = bytearray(good)
    huge[512 + 124:512 + 136] = bytes([0x80, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0])
    huge[512 + 148:512 + 156] = b" " * 8
    checksum = sum(huge[512:1024])
    huge[512 + 148:512 + 156] = ("%06o\0 " % checksum).encode()
    open(os.path.join(OUT, "huge_size.tar"), "wb").write(bytes(huge))

    upper_case_extensions()
    fortran_npy_members()


# Extensions in upper and mixed case: WebDataset's group_by_keys lower-cases the extension (its field
# name) with str.lower() and keeps the key as it is. upper.expected holds, per member, the key and the
# field Python gives it, so the Java test checks against Python's own lower-casing.
UPPER = [
    ("K1.JPG", b"jpeg-1"),
    ("K1.Cls", b"1"),
    ("K2.jpg", b"jpeg-2"),
    ("K2.CLS", b"2"),
    ("Dir/K3.Seg.PNG", b"png-3"),
    ("Dir/K3.cLs", b"3"),
    ("K4.\u00c9T\u00c9", b"summer"),  # non-ASCII: a pax header carries the name
    ("K4.CLS", b"4"),
]


def upper_case_extensions():
    write("upper.tar", tarfile.PAX_FORMAT, UPPER)
    with open(os.path.join(OUT, "upper.expected"), "w", encoding="utf-8") as f:
        for name, _ in UPPER:
            key, ext = re.match(r"^((?:.*/|)[^.]+)[.]([^/]*)$", name).groups()  # WebDataset's base_plus_ext
            f.write(key + " " + ext.lower() + "\n")
    # K5.JPG and K5.jpg are one field to WebDataset: "duplicate file name in tar file"
    write("upper_duplicate.tar", tarfile.USTAR_FORMAT, [("K5.JPG", b"a"), ("K5.jpg", b"b")])



def fortran_npy_members():
    """Fortran-order .npy members, little- and big-endian; the expected file holds NumPy's values in C order."""
    import numpy as np
    a = (np.arange(24, dtype="<f4") * 0.5 - 3).reshape(2, 3, 4)
    members = []
    for i, arr in enumerate([np.asfortranarray(a), np.asfortranarray(a.astype(">f4"))]):
        buf = io.BytesIO()
        np.save(buf, arr)
        assert b"'fortran_order': True" in buf.getvalue()
        members.append(("f%d.x.npy" % i, buf.getvalue()))
    write("fortran_npy.tar", tarfile.USTAR_FORMAT, members)
    with open(os.path.join(OUT, "fortran_npy.expected"), "w") as f:
        f.write(" ".join(float(v).hex() for v in a.reshape(-1)) + "\n")

if __name__ == "__main__":
    main()
