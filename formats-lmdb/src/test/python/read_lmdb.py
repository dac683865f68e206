"""Reads an LMDB environment in W8's layout as W8's PyTorch dataset does, for LmdbWriterPythonTest.

    /usr/bin/python3 read_lmdb.py ENV

Opens ENV with lmdb.open(ENV, readonly=True, lock=False, readahead=False, meminit=False; subdir=False
when ENV is a file, a single-file environment) and prints
one line "len N", one line "labels l0 l1 ...", then per sample "i size crc32" (zlib.crc32 of the
value under b"%06d" % i).
"""
import os
import sys
import zlib

import lmdb


def main():
    path = sys.argv[1]
    env = lmdb.open(path, readonly=True, lock=False, readahead=False, meminit=False,
                    subdir=os.path.isdir(path))
    with env.begin() as txn:
        n = int(txn.get(b"__len__"))
        labels = txn.get(b"__labels__")
        print("len", n)
        print("labels", " ".join(str(b) for b in labels))
        for i in range(n):
            value = txn.get(b"%06d" % i)
            print(i, len(value), zlib.crc32(value))
    env.close()


if __name__ == "__main__":
    main()
