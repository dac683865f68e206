"""Writes the HDF5 fixtures of arrays partly or never written, read as their fill value (issue 16,
point 9), with h5py (Debian: apt-get install python3-h5py).

Run: /usr/bin/python3 src/test/python/make_fill_fixtures.py   (from formats-hdf5/)

Each file holds arrays of 10 rows and, under expected/<name>, what h5py reads back for each array
after the file was closed and opened again (a plain contiguous copy, which the tests compare
element by element, NaN by its bits):
  fill.h5        h5py's default file format (fill value message version 2, beside the old message
                 HDF5 writes for backward compatibility): chunked arrays of several dtypes with some
                 chunks never written and a fill value, one with no fill value (0), compressed ones
                 with missing chunks, contiguous ones never written (no address), fill time "never"
                 (h5py then gives 0), chunks allocated early (the fill value written to disk).
  fill_latest.h5 libver="latest" (fill value message version 3, and the newer chunk indexes: fixed
                 array, extensible array, version 2 B-tree, single chunk) with missing chunks;
                 ext_gap: an extensible array index with a gap, which jhdf 0.13 misreads.
  fill_old.h5    like part of fill.h5, with each array's fill value message turned into a NIL
                 message, so only the old fill value message (type 4) remains, as in files from
                 before HDF5 1.6; the script checks that h5py still reads the expected values.
                 contig_default, never written, then states no fill value at all: HDF5 refuses to
                 read it, and so does Stoker.
Each also gets its .regions (see make_fixtures.py), for Hdf5CorruptionFuzzTest.
"""
import os
import sys

import h5py
import numpy as np
from h5py import h5d, h5p, h5s, h5t

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixtures import write_regions  # noqa: E402  (the corruption fuzz test's map of each file)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "hdf5")
N = 10


def make(f, name, shape, dtype, chunks=None, fill=None, fill_time=None, gzip=False, maxshape=None,
         early=False):
    dcpl = h5p.create(h5p.DATASET_CREATE)
    dcpl.set_obj_track_times(False)  # no timestamps: the same bytes at every run
    if chunks:
        dcpl.set_chunk(chunks)
    if gzip:
        dcpl.set_shuffle()
        dcpl.set_deflate(4)
    if fill is not None:
        dcpl.set_fill_value(np.array(fill, dtype=dtype))
    if fill_time is not None:
        dcpl.set_fill_time(fill_time)
    if early:
        dcpl.set_alloc_time(h5d.ALLOC_TIME_EARLY)
    if maxshape is not None:
        maxshape = tuple(h5s.UNLIMITED if m is None else m for m in maxshape)
    sid = h5s.create_simple(shape, maxshape)
    dsid = h5d.create(f.id, name.encode(), h5t.py_create(np.dtype(dtype)), sid, dcpl=dcpl)
    return h5py.Dataset(dsid)


def ramp(shape, dtype, start=1):
    return (np.arange(np.prod(shape)).reshape(shape) + start).astype(dtype)


def fill_h5(f):
    d = make(f, "i32", (N, 3, 4), "i4", (2, 3, 2), fill=-7)
    d[0:2] = ramp((2, 3, 4), "i4")
    d[5, :, 2:] = 11                       # part of one chunk: the rest of it gets the fill value
    d = make(f, "f64", (N, 5), "f8", (4, 2), fill=2.5)
    d[4:8, 0:2] = ramp((4, 2), "f8") / 4
    d = make(f, "u8", (N, 6), "u1", (3, 6), fill=200)
    d[3:6] = ramp((3, 6), "u1")
    d = make(f, "i16be", (N, 4), ">i2", (2, 4), fill=-300)
    d[8:10] = -ramp((2, 4), "i2")
    d = make(f, "f16", (N, 4), "f2", (5, 2), fill=1.5)
    d[0:5, 0:2] = ramp((5, 2), "f2") / 8
    d = make(f, "f32nan", (N, 3), "f4", (2, 3), fill=np.nan)
    d[0:2] = ramp((2, 3), "f4")
    d = make(f, "labels", (N,), "i8", (3,), fill=-1)
    d[0:3] = [4, 5, 6]
    d = make(f, "default", (N, 3, 4), "f4", (2, 3, 4))
    d[0:2] = ramp((2, 3, 4), "f4")
    d = make(f, "gzip", (N, 3, 4), "i8", (2, 3, 4), fill=123456789012, gzip=True)
    d[2:4] = ramp((2, 3, 4), "i8")
    d[8:10] = -ramp((2, 3, 4), "i8")
    d = make(f, "gzip_f32", (N, 8), "f4", (1, 8), fill=-0.25, gzip=True)
    d[1] = ramp((8,), "f4")
    d[4] = ramp((8,), "f4", 100)
    make(f, "contig_f32", (N, 3, 4), "f4", fill=9.5)
    make(f, "contig_i64be", (N, 2), ">i8", fill=-123456789)
    make(f, "contig_default", (N, 3), "f8")
    d = make(f, "never_chunked", (N, 4), "i4", (2, 4), fill=5, fill_time=h5d.FILL_TIME_NEVER)
    d[0:2] = 1
    make(f, "never_contig", (N, 4), "i4", fill=5, fill_time=h5d.FILL_TIME_NEVER)
    d = make(f, "early", (N, 4), "i4", (2, 4), fill=3, early=True)
    d[0:2] = 1
    # 320 MB claimed, one chunk of 6.4 kB written: refused (more than 1100 times the file).
    d = make(f, "huge_sparse", (5_000_000, 16), "f4", (100, 16), fill=1)
    d[0:100] = 2
    # Variable-length strings (Stoker reads numbers only: refused by name), chunks partly written.
    d = f.create_dataset("names", (N,), dtype=h5py.string_dtype(), chunks=(2,), track_times=False)
    d[0:2] = ["a", "bc"]


def fill_latest_h5(f):
    d = make(f, "fixed", (N, 3, 4), "i4", (2, 3, 4), fill=-7)            # fixed array index
    d[0:2] = ramp((2, 3, 4), "i4")
    d[6:8] = ramp((2, 3, 4), "i4", 50)
    d = make(f, "fixed_gzip", (N, 3, 4), "i4", (2, 3, 4), fill=-8, gzip=True)
    d[4:6] = ramp((2, 3, 4), "i4")
    d = make(f, "ext", (N, 4), "i2", (2, 4), fill=77, maxshape=(None, 4))  # extensible array
    d[0:5] = ramp((5, 4), "i2")              # chunks 0-2 written, 3-4 never
    # A chunk never written before a written one: jhdf 0.13 loses the chunks after the gap, and
    # Stoker refuses the array (Hdf5FillValueTest checks the refusal).
    d = make(f, "ext_gap", (N, 4), "i2", (2, 4), fill=77, maxshape=(None, 4))
    d[2:4] = ramp((2, 4), "i2")
    d = make(f, "bt2", (N, 4), "f4", (2, 2), fill=0.5, maxshape=(None, None))  # version 2 B-tree
    d[0:2, 0:2] = ramp((2, 2), "f4")
    make(f, "single", (N, 4), "f8", (N, 4), fill=4.25)                      # single chunk, never written
    # (Not a filtered single chunk: jhdf 0.13 fails on its layout message, written or not, and
    # then on every array of the file.)
    make(f, "contig", (N, 3), "f4", fill=9.5)


OLD = ("i32", "f64", "labels", "gzip", "contig_f32")
# An array never written with neither fill value message HDF5 cannot read ("dataset doesn't exist"):
# contig_default too loses its fill value message, and the tests expect a refusal.
NO_FILL_MESSAGE = OLD + ("contig_default",)


def fill_old_h5(f):
    fill_h5(f)
    for name in list(f):
        if name not in NO_FILL_MESSAGE:
            del f[name]


def write_expected(path):
    with h5py.File(path, "r") as f:
        values = {name: f[name][()] for name in f
                  if isinstance(f[name], h5py.Dataset) and not name.startswith("huge")}
    with h5py.File(path, "a") as f:
        gcpl = h5p.create(h5p.GROUP_CREATE)
        gcpl.set_obj_track_times(False)
        h5py.h5g.create(f.id, b"expected", gcpl=gcpl)
        for name, v in values.items():
            f.create_dataset("expected/" + name, data=v, track_times=False)
    return values


def nil_fill_messages(path, names):
    """Turns the (new) fill value message of each named array into a NIL message: version 1 object
    headers (h5py's default format) have no checksum, so only the type field changes."""
    with h5py.File(path, "r") as f:
        addresses = [h5py.h5o.get_info(f[n].id).addr for n in names]
    with open(path, "r+b") as fh:
        for at in addresses:
            fh.seek(at)
            head = fh.read(16)
            assert head[0] == 1, "object header version %d" % head[0]
            count = int.from_bytes(head[2:4], "little")
            size = int.from_bytes(head[8:12], "little")
            body = bytearray(fh.read(size))
            pos, found = 0, False
            for _ in range(count):
                if pos + 8 > len(body):
                    break
                kind = int.from_bytes(body[pos:pos + 2], "little")
                length = int.from_bytes(body[pos + 2:pos + 4], "little")
                if kind == 5:
                    body[pos:pos + 2] = b"\0\0"
                    found = True
                pos += 8 + length
            assert found, "no fill value message at %d" % at
            fh.seek(at + 16)
            fh.write(body)


def create(path, libver):
    """A new file whose root group records no times either (the same bytes at every run)."""
    fcpl = h5p.create(h5p.FILE_CREATE)
    fcpl.set_obj_track_times(False)
    fapl = h5p.create(h5p.FILE_ACCESS)
    bound = h5py.h5f.LIBVER_LATEST if libver == "latest" else h5py.h5f.LIBVER_EARLIEST
    fapl.set_libver_bounds(bound, h5py.h5f.LIBVER_LATEST)
    return h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl, fapl=fapl))


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, build, libver in (("fill.h5", fill_h5, "earliest"), ("fill_latest.h5", fill_latest_h5, "latest"),
                                ("fill_old.h5", fill_old_h5, "earliest")):
        path = os.path.join(OUT, name)
        with create(path, libver) as f:
            build(f)
        expected = write_expected(path)
        if name == "fill_old.h5":
            nil_fill_messages(path, NO_FILL_MESSAGE)
            with h5py.File(path, "r") as f:
                for n in OLD:
                    assert f[n].id.get_create_plist().get_fill_time() is not None
                    got = f[n][()]
                    assert np.array_equal(got, expected[n], equal_nan=True), n
        write_regions(name)


if __name__ == "__main__":
    main()
