"""Writes data/hf: a tiny Hugging Face-style dataset of pre-tokenized examples, as `datasets`
publishes it (data/train-00000-of-00002.parquet, ...), with pyarrow:

    python3 make_data.py     # needs pyarrow (pip install pyarrow)

400 examples, lengths from a long tail (log-normal, median 40, at most 256), tokens 0..31999,
row groups of 100 rows. The files are shipped: the example needs no Python to run.
"""
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

rng = np.random.default_rng(18)
lengths = np.clip(np.round(40 * np.exp(rng.normal(size=400))), 4, 256).astype(int)
examples = [rng.integers(0, 32000, size=n, dtype=np.int32).tolist() for n in lengths]
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hf", "data")
os.makedirs(out, exist_ok=True)
for shard, (lo, hi) in enumerate([(0, 200), (200, 400)]):
    table = pa.table({"input_ids": pa.array(examples[lo:hi], type=pa.list_(pa.int32()))})
    pq.write_table(table, os.path.join(out, f"train-{shard:05d}-of-00002.parquet"), row_group_size=100)
