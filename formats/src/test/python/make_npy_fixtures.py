#!/usr/bin/env python3
"""Writes the .npy fixtures of the formats module's tests, with NumPy itself.

Run from anywhere:  python3 formats/src/test/python/make_npy_fixtures.py
Writes formats/src/test/resources/npy/*.npy and two listings beside them:

  expected.txt  one line per valid file: name, dtype (Stoker's name), shape, then every value in
                C order (integers in decimal, floats as float.hex(), nan/inf spelled out);
  corrupt.txt   one line per file that must be refused: name, then a phrase its error must contain.

Deterministic (seed 5): running it again rewrites the same bytes.
"""
import os
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "npy")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(5)
expected = []
corrupt = []

STOKER = {"b1": "bool", "u1": "u8", "i1": "i8", "i2": "i16", "u2": "u16", "i4": "i32", "i8": "i64",
          "f2": "f16", "f4": "f32", "f8": "f64"}


def fmt(x, kind):
    if kind == "b":
        return "1" if x else "0"
    if kind in "iu":
        return str(int(x))
    f = float(x)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    return f.hex()


def valid(name, a, version=None):
    path = os.path.join(OUT, name + ".npy")
    with open(path, "wb") as f:
        if version is None:
            np.save(f, a)
        else:
            np.lib.format.write_array(f, a, version=version)
    code = a.dtype.kind + str(a.dtype.itemsize)
    flat = np.ascontiguousarray(a).reshape(-1)
    shape = "x".join(str(d) for d in a.shape) if a.ndim else "scalar"
    expected.append(" ".join([name, STOKER[code], shape] + [fmt(v, a.dtype.kind) for v in flat]))


def sample(code, shape):
    kind, size = code[0], int(code[1])
    if kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if kind in "iu":
        info = np.iinfo(np.dtype(code))
        v = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.dtype(code))
        v.reshape(-1)[:2] = [info.min, info.max]
        return v
    v = rng.standard_normal(size=shape) * 100
    v = v.astype(np.dtype(code))
    flat = v.reshape(-1)
    flat[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return v


def raw(name, data, must_contain):
    with open(os.path.join(OUT, name + ".npy"), "wb") as f:
        f.write(data)
    corrupt.append(name + " " + must_contain)


def header(dict_text, version=1, pad=True):
    body = dict_text.encode("latin1")
    if pad:
        body += b" " * ((64 - (10 + len(body) + 1) % 64) % 64) + b"\n"
    if version == 1:
        return b"\x93NUMPY\x01\x00" + len(body).to_bytes(2, "little") + body
    return b"\x93NUMPY" + bytes([version, 0]) + len(body).to_bytes(4, "little") + body


# Every dtype, little-endian, 2-d.
for code in STOKER:
    valid("le_" + code, sample(code, (3, 4)).astype("<" + code if code[1] != "1" else code))
# Wider dtypes, big-endian.
for code in ["i2", "u2", "i4", "i8", "f2", "f4", "f8"]:
    valid("be_" + code, sample(code, (2, 5)).astype(">" + code))
valid("scalar_f8", np.array(3.25))
valid("scalar_i4", np.array(-7, dtype="<i4"))
valid("empty_f4", np.zeros((0, 3), dtype="<f4"))
valid("empty_1d_i8", np.zeros((0,), dtype="<i8"))
valid("three_d_f4", rng.standard_normal((2, 3, 4)).astype("<f4"))
valid("one_d_u2", np.arange(10, dtype="<u2"))
valid("v2_i2", rng.integers(-100, 100, size=(4, 3), dtype="<i2"), version=(2, 0))
valid("v3_f8", rng.standard_normal((3, 2)), version=(3, 0))
# fortran_order True where it does not change the layout (a single row) is read as C order.
one_row_f = np.asfortranarray(np.arange(5, dtype="<i4").reshape(1, 5))
valid("fortran_one_row_i4", one_row_f)

# Fortran order (column-major, np.asfortranarray): np.save writes fortran_order True and the data
# column by column; Stoker copies it into C order once. Every dtype, non-square 2-d, 3-d and 4-d
# (with an axis of 1), big-endian too; expected.txt lists the values in C order, as NumPy reads them.
valid("fortran_f4", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
for code in STOKER:
    le = "<" + code if code[1] != "1" else code
    valid("fortran_2d_" + code, np.asfortranarray(sample(code, (3, 5)).astype(le)))
    valid("fortran_3d_" + code, np.asfortranarray(sample(code, (2, 3, 4)).astype(le)))
valid("fortran_4d_i2", np.asfortranarray(sample("i2", (2, 1, 3, 2)).astype("<i2")))
valid("fortran_3d_tall_f8", np.asfortranarray(sample("f8", (7, 2, 3)).astype("<f8")))
for code in ["i2", "f4", "f8"]:
    valid("fortran_be_3d_" + code, np.asfortranarray(sample(code, (3, 2, 4)).astype(">" + code)))
# A 1-d array is the same in either order (np.save says False); a header saying True is read as C order.
one_d = np.arange(4, dtype="<i4")
with open(os.path.join(OUT, "fortran_1d_i4.npy"), "wb") as f:
    f.write(header("{'descr': '<i4', 'fortran_order': True, 'shape': (4,), }") + one_d.tobytes())
assert (np.load(os.path.join(OUT, "fortran_1d_i4.npy")) == one_d).all()
expected.append("fortran_1d_i4 i32 4 0 1 2 3")

# Refused, with the reason.
np.save(os.path.join(OUT, "unsupported_u4.npy"), np.arange(3, dtype="<u4"))
corrupt.append("unsupported_u4 uint32")
np.save(os.path.join(OUT, "unsupported_object.npy"), np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
corrupt.append("unsupported_object object arrays")
np.save(os.path.join(OUT, "unsupported_unicode.npy"), np.array(["ab", "cde"]))
corrupt.append("unsupported_unicode unicode")
np.save(os.path.join(OUT, "unsupported_complex.npy"), np.array([1 + 2j]))
corrupt.append("unsupported_complex complex")
np.save(os.path.join(OUT, "unsupported_structured.npy"), np.zeros(2, dtype=[("x", "<f4"), ("y", "<i4")]))
corrupt.append("unsupported_structured structured")

good = open(os.path.join(OUT, "le_f4.npy"), "rb").read()
raw("corrupt_empty", b"", "truncated")
raw("corrupt_short", good[:7], "truncated")
raw("corrupt_magic", b"\x93NUMPZ" + good[6:], "not a .npy file")
raw("corrupt_version", good[:6] + b"\x04\x00" + good[8:], "version 4.0")
raw("corrupt_header_length", good[:8] + (60000).to_bytes(2, "little") + good[10:], "header length")
raw("corrupt_header_cut", good[:40], "header length")
raw("corrupt_data_cut", good[:-5], "truncated")
raw("corrupt_trailing", good + b"\x00" * 8, "does not match the file size")
raw("corrupt_syntax", header("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), ") + b"\x00" * 48, "header dict")
raw("corrupt_unclosed_string", header("{'descr': '<f4, 'fortran_order': False, 'shape': (3, 4), }") + b"\x00" * 48,
    "header dict")
raw("corrupt_keys", header("{'descr': '<f4', 'shape': (3, 4), }") + b"\x00" * 48, "keys")
raw("corrupt_shape_type", header("{'descr': '<f4', 'fortran_order': False, 'shape': [3, 4], }") + b"\x00" * 48,
    "'shape' must be a tuple")
raw("corrupt_negative_dim", header("{'descr': '<f4', 'fortran_order': False, 'shape': (-3, 4), }"),
    "not a non-negative integer")
raw("corrupt_overflow", header("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
    "2^63")
raw("corrupt_bytes_overflow", header("{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846976, 2), }"),
    "2^63")
raw("corrupt_huge_int", header("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }"),
    "does not fit in 64 bits")
raw("corrupt_nested", header("{'descr': '<f8', 'fortran_order': False, 'shape': " + "(" * 100 + ")" * 100 + "}"),
    "nested")
raw("corrupt_fortran_type", header("{'descr': '<f4', 'fortran_order': 0, 'shape': (3, 4), }") + b"\x00" * 48,
    "fortran_order")
raw("corrupt_descr", header("{'descr': '<x4', 'fortran_order': False, 'shape': (3, 4), }") + b"\x00" * 48,
    "dtype '<x4'")
raw("corrupt_not_dict", header("['descr', '<f4']"), "not a dict")
raw("corrupt_v2_cut", b"\x93NUMPY\x02\x00\x10", "truncated")

with open(os.path.join(OUT, "expected.txt"), "w") as f:
    f.write("\n".join(expected) + "\n")
with open(os.path.join(OUT, "corrupt.txt"), "w") as f:
    f.write("\n".join(corrupt) + "\n")
print("wrote", len(expected), "valid and", len(corrupt), "refused files to", os.path.normpath(OUT))
