"""Writes the HDF5 fixtures under src/test/resources/hdf5 with h5py (Debian: apt-get install python3-h5py).

Run: /usr/bin/python3 src/test/python/make_fixtures.py   (from formats-hdf5/)
Values are arithmetic so the tests can recompute them: data[i, ...] = i * 1000 + flat position, labels[i] = i * 7 - 3.
"""
import os
import numpy as np
import h5py

OUT = os.path.join(os.path.dirname(__file__), "..", "resources", "hdf5")
N, SHAPE = 10, (3, 4, 5)


def values(dtype):
    flat = np.arange(np.prod(SHAPE), dtype=np.float64)
    return np.stack([(i * 1000 + flat).reshape(SHAPE) for i in range(N)]).astype(dtype)


def labels():
    return (np.arange(N, dtype=np.int64) * 7 - 3)


def main():
    os.makedirs(OUT, exist_ok=True)
    with h5py.File(os.path.join(OUT, "contiguous.h5"), "w") as f:
        f.create_dataset("data", data=values(np.float32))
        f.create_dataset("labels", data=labels())
        f.create_dataset("group/short", data=np.arange(7, dtype=np.int64))  # first axis differs
    with h5py.File(os.path.join(OUT, "chunked_gzip.h5"), "w") as f:
        f.create_dataset("data", data=values(np.float32), chunks=(3, 3, 4, 5), compression="gzip", shuffle=True)
        f.create_dataset("labels", data=labels(), chunks=(4,), compression="gzip")
    with h5py.File(os.path.join(OUT, "big_endian.h5"), "w") as f:
        f.create_dataset("data", data=values(np.float32), dtype=">f4")
        f.create_dataset("labels", data=labels(), dtype=">i8")
    whole_path = os.path.join(OUT, "whole.tmp.h5")
    with h5py.File(whole_path, "w") as f:
        f.create_dataset("data", data=values(np.float32))
        f.create_dataset("labels", data=labels())
        ends = [f[n].id.get_offset() + f[n].id.get_storage_size() for n in ("data", "labels")]
    with open(whole_path, "rb") as f:
        whole = f.read()
    os.remove(whole_path)
    assert max(ends) == len(whole), (ends, len(whole))  # the raw data is last, after the metadata
    with open(os.path.join(OUT, "truncated.h5"), "wb") as f:  # metadata intact, the last array cut short
        f.write(whole[: len(whole) - 40])


if __name__ == "__main__":
    main()
