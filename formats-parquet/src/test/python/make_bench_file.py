"""Writes the file ParquetReadRate measures (about 300 MB, not shipped):

    python3 formats-parquet/src/test/python/make_bench_file.py /tmp/bench.parquet [rows]

Columns id (int64), x (double) and window (list<int32> of 32 tokens), snappy, row groups of
131072 rows: a pretraining-style table of fixed token windows.
"""
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 4_000_000
chunk = 1 << 20
schema = pa.schema([("id", pa.int64()), ("x", pa.float64()), ("window", pa.list_(pa.int32()))])
rng = np.random.default_rng(0)
with pq.ParquetWriter(out, schema, compression="snappy") as w:
    for lo in range(0, rows, chunk):
        n = min(chunk, rows - lo)
        ids = np.arange(lo, lo + n, dtype=np.int64)
        tokens = rng.integers(0, 50_000, size=n * 32, dtype=np.int32)
        window = pa.ListArray.from_arrays(pa.array(np.arange(0, n * 32 + 1, 32, dtype=np.int32)), pa.array(tokens))
        w.write_table(pa.table({"id": ids, "x": ids * 0.5, "window": window}, schema=schema), row_group_size=131072)
