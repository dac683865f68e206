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


SIGNATURES = {b"TREE": "btree", b"HEAP": "heap", b"SNOD": "symbols", b"GCOL": "globalheap"}


def write_regions(name):
    """Writes <name>.regions beside the fixture: where its structures lie, for the corruption fuzz test
    (Hdf5CorruptionFuzzTest weights its damage towards them). One line per region: kind offset length."""
    path = os.path.join(OUT, name)
    with open(path, "rb") as fh:
        whole = fh.read()
    regions = [("superblock", 0, 96)]
    with h5py.File(path, "r") as f:
        objects = [f]
        f.visititems(lambda _, obj: objects.append(obj))
        for obj in objects:
            info = h5py.h5o.get_info(obj.id)
            regions.append(("objectheader", info.addr, info.hdr.space.total))
            if isinstance(obj, h5py.Dataset):
                if obj.chunks is None:
                    if obj.id.get_offset() is not None:
                        regions.append(("raw", obj.id.get_offset(), obj.id.get_storage_size()))
                else:
                    for i in range(obj.id.get_num_chunks()):
                        c = obj.id.get_chunk_info(i)
                        regions.append(("raw", c.byte_offset, c.size))
    starts = sorted(r[1] for r in regions) + [len(whole)]
    for sig, kind in SIGNATURES.items():
        at = whole.find(sig)
        while at >= 0:
            end = min([s for s in starts if s > at] + [at + 1024])
            regions.append((kind, at, min(end - at, 1024)))
            at = whole.find(sig, at + 1)
    with open(path[: -len(".h5")] + ".regions", "w") as out:
        out.write("# kind offset length (written by make_fixtures.py)\n")
        for kind, offset, length in sorted(regions, key=lambda r: r[1]):
            out.write(f"{kind} {offset} {length}\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    with h5py.File(os.path.join(OUT, "contiguous.h5"), "w") as f:
        f.create_dataset("data", data=values(np.float32))
        f.create_dataset("labels", data=labels())
        f.create_dataset("group/short", data=np.arange(7, dtype=np.int64))  # first axis differs
    with h5py.File(os.path.join(OUT, "chunked_gzip.h5"), "w") as f:
        f.create_dataset("data", data=values(np.float32), chunks=(3, 3, 4, 5), compression="gzip", shuffle=True)
        f.create_dataset("labels", data=labels(), chunks=(4,), compression="gzip")
    with h5py.File(os.path.join(OUT, "chunked.h5"), "w") as f:  # unfiltered; chunks cut rows, partial at the edges
        f.create_dataset("data", data=values(np.float32), chunks=(4, 2, 3, 5))
        f.create_dataset("labels", data=labels(), chunks=(3,))
        sparse = f.create_dataset("sparse", shape=(N,) + SHAPE, dtype=np.float32, chunks=(2,) + SHAPE)
        sparse[:4] = values(np.float32)[:4]  # the chunks of rows 4.. are never written: the fill value, 0
    with h5py.File(os.path.join(OUT, "chunked_lzf.h5"), "w") as f:  # lzf + fletcher32, big-endian labels
        f.create_dataset("data", data=values(np.float32), chunks=(2, 3, 4, 5), compression="lzf", fletcher32=True)
        f.create_dataset("labels", data=labels(), dtype=">i8", chunks=(4,), compression="lzf")
    with h5py.File(os.path.join(OUT, "big_endian.h5"), "w") as f:
        f.create_dataset("data", data=values(np.float32), dtype=">f4")
        f.create_dataset("labels", data=labels(), dtype=">i8")
    for name in ("contiguous.h5", "chunked.h5", "chunked_gzip.h5", "chunked_lzf.h5", "big_endian.h5"):
        write_regions(name)
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
