"""Writes a small LMDB environment with a three-level B-tree and overflow values, the starting
point of the corruption fuzz tests (LmdbCorruptionFuzzTest), with Python's lmdb package.

Run with Debian's python (apt-get install -y python3-lmdb):
    /usr/bin/python3 formats-lmdb/src/test/python/make_lmdb_tree_fixture.py

Writes src/test/resources/lmdb/tree/data.mdb: 64 keys of 500 bytes (b"%06d" % i padded with
b"k"), so that few fit in a page and the tree has branch pages two levels deep, inserted in a
shuffled order; value i is bytes((i + j) % 256 for j in range(n)) with n = 5000 for every 16th
key (an overflow value of two pages) and n = 20 + i otherwise. Keys 000010 and 000011 are then
deleted, so the file also holds freed pages. Page size is the OS page size (4096 on x86-64).
"""
import os
import random
import shutil

import lmdb

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "lmdb", "tree")
N = 64


def key(i):
    return (b"%06d" % i).ljust(500, b"k")


def value(i):
    n = 5000 if i % 16 == 0 else 20 + i
    return bytes((i + j) % 256 for j in range(n))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    env = lmdb.open(OUT, map_size=1 << 20)
    order = list(range(N))
    random.Random(1).shuffle(order)
    with env.begin(write=True) as txn:
        for i in order:
            txn.put(key(i), value(i))
    with env.begin(write=True) as txn:
        txn.delete(key(10))
        txn.delete(key(11))
    env.close()
    os.remove(os.path.join(OUT, "lock.mdb"))


if __name__ == "__main__":
    main()
