"""Writes the LMDB fixture the tests read, with Python's lmdb package, in W8's layout.

Run with Debian's python (apt-get install -y python3-lmdb):
    /usr/bin/python3 formats-lmdb/src/test/python/make_lmdb_fixture.py

Writes src/test/resources/lmdb/small/{data.mdb,lock.mdb}: keys b"000000".."000006" -> bytes
(sample i is i+1 copies of the byte (7*i) % 256, the last one 0 bytes long is avoided so every
value is non-empty), b"__len__" -> b"7", b"__labels__" -> 7 uint8 class ids (i * 3 % 5).
Also src/test/resources/lmdb/nolen/: the same without __len__ and __labels__ but with key "x".
"""
import os
import shutil

import lmdb

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "lmdb")
N = 7


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return lmdb.open(path, map_size=1 << 20)


def main():
    env = fresh(os.path.join(OUT, "small"))
    with env.begin(write=True) as txn:
        for i in range(N):
            txn.put(b"%06d" % i, bytes([(7 * i) % 256]) * (i + 1))
        txn.put(b"__len__", str(N).encode())
        txn.put(b"__labels__", bytes([(i * 3) % 5 for i in range(N)]))
    env.close()

    env = fresh(os.path.join(OUT, "nolen"))
    with env.begin(write=True) as txn:
        txn.put(b"x", b"y")
    env.close()


if __name__ == "__main__":
    main()
