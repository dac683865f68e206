"""Writes the Parquet fixtures of formats-parquet's tests with pyarrow (25.0.1 made the shipped ones).

    python3 formats-parquet/src/test/python/make_fixtures.py formats-parquet/src/test/resources/parquet

Every file holds the same rows (see row() below; the tests compute the same values), cut into row
groups of 128 rows, written with one compression and encoding each, so that the tests read one
table through every codec and encoding the reader supports. hf/ is a Hugging Face dataset layout
(data/{split}-{shard:05d}-of-{count:05d}.parquet) of the same rows: train in two shards, test in one.
"""
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 1000
GROUP = 128


def row(i):
    return {
        "id": i,                                              # int64, plain or dictionary
        "x": i * 0.5,                                         # double
        "f": i * 0.25,                                        # float
        "n": i * 3 - 7,                                       # int32
        "label": i % 10,                                      # int64, few values: dictionary + RLE
        "text": None if i % 7 == 3 else f"row {i} " + "ab" * (i % 5),   # string with nulls
        "blob": bytes([i % 256, (i * 7) % 256]),              # binary
        "tokens": None if i % 11 == 4 else list(range(i % 5)),  # list<int32>, variable, nulls
        "window": [i, i + 1, i + 2, i + 3],                   # list<int32>, fixed length 4
    }


SCHEMA = pa.schema([
    ("id", pa.int64()), ("x", pa.float64()), ("f", pa.float32()), ("n", pa.int32()),
    ("label", pa.int64()), ("text", pa.string()), ("blob", pa.binary()),
    ("tokens", pa.list_(pa.int32())), ("window", pa.list_(pa.int32())),
])


def table(lo, hi):
    rows = [row(i) for i in range(lo, hi)]
    return pa.table({name: [r[name] for r in rows] for name in SCHEMA.names}, schema=SCHEMA)


def main(out):
    os.makedirs(out, exist_ok=True)
    t = table(0, ROWS)
    variants = {
        "snappy_dict.parquet": dict(compression="snappy", use_dictionary=True),
        "zstd_plain.parquet": dict(compression="zstd", use_dictionary=False),
        "gzip_dict.parquet": dict(compression="gzip", use_dictionary=True),
        "none_plain.parquet": dict(compression="none", use_dictionary=False),
        "none_dict_v2.parquet": dict(compression="none", use_dictionary=True, data_page_version="2.0"),
        "snappy_v2.parquet": dict(compression="snappy", use_dictionary=True, data_page_version="2.0"),
        "zstd_label_dict.parquet": dict(compression="zstd", use_dictionary=["label"]),
    }
    for name, options in variants.items():
        pq.write_table(t, os.path.join(out, name), row_group_size=GROUP, **options)
    data = os.path.join(out, "hf", "data")
    os.makedirs(data, exist_ok=True)
    pq.write_table(table(0, 600), os.path.join(data, "train-00000-of-00002.parquet"), row_group_size=GROUP)
    pq.write_table(table(600, ROWS), os.path.join(data, "train-00001-of-00002.parquet"), row_group_size=GROUP)
    pq.write_table(table(0, 200), os.path.join(data, "test-00000-of-00001.parquet"), row_group_size=GROUP)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "parquet")
