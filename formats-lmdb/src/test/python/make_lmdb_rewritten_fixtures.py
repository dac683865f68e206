"""Writes LMDB environments whose values were overwritten and deleted, as real LMDB leaves them,
and what Python's lmdb reads back from each, for LmdbRewrittenTest (issue 16, point 10).

Run with Debian's python (apt-get install -y python3-lmdb):
    /usr/bin/python3 formats-lmdb/src/test/python/make_lmdb_rewritten_fixtures.py
    /usr/bin/python3 formats-lmdb/src/test/python/make_lmdb_rewritten_fixtures.py --random SEED DIR

Writes under src/test/resources/lmdb/:
  overwritten/  one transaction puts big values (3 overflow pages) and overwrites some of them:
                with a 1-byte value, a 5000-byte one and a 20000-byte one. LMDB overwrites a big
                value in place when its overflow run is dirty (written in this transaction) and
                large enough, and keeps counting the whole run: stat() then says more overflow
                pages than the values' sizes need.
  deleted/      big values put in one transaction, some deleted and some overwritten in the next
                (their pages go to the freelist), then a few more put (reusing freed pages).
  churn/        40 transactions of seeded random puts, overwrites and deletes of small, medium and
                big values, so the freelist is reused many times (seed 16: 5-byte keys; seeds
                divisible by 3 use 400-byte keys and make a three-level tree).
Each gets data.mdb (lock.mdb removed) and expected.txt: one line "HEXKEY SIZE SHA256" per entry,
in key order, as Python's lmdb reads them; the last line "stat PSIZE DEPTH BRANCH LEAF OVERFLOW
ENTRIES" is env.stat().

--random SEED DIR writes the churn workload with that seed into DIR (data.mdb and expected.txt):
the property test runs it over many seeds.
"""
import hashlib
import os
import random
import shutil
import sys

import lmdb

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "lmdb")


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return lmdb.open(path, map_size=1 << 26)


def value(seed, n):
    r = random.Random(seed)
    return bytes(r.getrandbits(8) for _ in range(min(n, 64))) * (n // 64 + 1)


def finish(env, path):
    with env.begin() as txn, open(os.path.join(path, "expected.txt"), "w") as out:
        for k, v in txn.cursor():
            out.write("%s %d %s\n" % (k.hex(), len(v), hashlib.sha256(v).hexdigest()))
        s = env.stat()
        out.write("stat %d %d %d %d %d %d\n" % (s["psize"], s["depth"], s["branch_pages"],
                                               s["leaf_pages"], s["overflow_pages"], s["entries"]))
    env.close()
    lock = os.path.join(path, "lock.mdb")
    if os.path.exists(lock):
        os.remove(lock)


def overwritten(path):
    env = fresh(path)
    with env.begin(write=True) as txn:
        for i in range(8):
            txn.put(b"big%02d" % i, value(i, 10000))
        txn.put(b"big01", b"y")                    # run of 3 reused for 1 page
        txn.put(b"big02", value(102, 5000))         # run of 3 reused for 2 pages
        txn.put(b"big03", value(103, 20000))        # too small: a new run of 5, the old one freed
        txn.put(b"big04", value(104, 100))          # small, still kept on its run of 3
        for i in range(20):
            txn.put(b"small%02d" % i, value(200 + i, 10 + i))
    finish(env, path)


def deleted(path):
    env = fresh(path)
    with env.begin(write=True) as txn:
        for i in range(12):
            txn.put(b"big%02d" % i, value(i, 9000 + 100 * i))
    with env.begin(write=True) as txn:
        for i in (1, 4, 7, 10):
            txn.delete(b"big%02d" % i)
        txn.put(b"big02", value(302, 3))           # an older run: freed, the value now in the leaf
        txn.put(b"big05", value(305, 30000))
    with env.begin(write=True) as txn:
        for i in range(6):
            txn.put(b"new%02d" % i, value(400 + i, 8000))
    finish(env, path)


def churn(path, seed):
    env = fresh(path)
    r = random.Random(seed)
    # Long keys make few fit in a page: a deeper tree, whose deletes merge branch pages too.
    klen, nkeys = [(400, 150), (5, 60), (100, 60)][seed % 3]
    keys = [(b"k%04d" % i).ljust(klen, b"k") for i in range(nkeys)]
    with env.begin(write=True) as txn:
        for k in keys:
            txn.put(k, value(r.getrandbits(32), r.choice([10, 3000])))
    for t in range(40):
        with env.begin(write=True) as txn:
            for _ in range(r.randint(1, 30)):
                k = r.choice(keys)
                op = r.random()
                if op < 0.12:
                    txn.delete(k)
                else:
                    n = r.choice([1, 7, 100, 900, 2100, 4000, 5000, 12000])
                    txn.put(k, value(r.getrandbits(32), n))
                    if r.random() < 0.3:               # overwrite in the same transaction
                        txn.put(k, value(r.getrandbits(32), r.choice([1, 50, 3000, 9000])))
    finish(env, path)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--random":
        churn(sys.argv[3], int(sys.argv[2]))
        return
    overwritten(os.path.join(OUT, "overwritten"))
    deleted(os.path.join(OUT, "deleted"))
    churn(os.path.join(OUT, "churn"), 16)


if __name__ == "__main__":
    main()
