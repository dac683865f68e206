#!/usr/bin/env python3
"""Writes the Megatron-LM indexed-dataset fixtures (.bin + .idx) of the formats module's tests
with Megatron-LM's own writer, IndexedDatasetBuilder in megatron/core/datasets/indexed_dataset.py.

Megatron's code is not part of Stoker: fetch it (git clone https://github.com/NVIDIA/Megatron-LM)
and pass the path of that one file. Its imports of Megatron's storage helpers are stubbed below
(local files only), so it runs with NumPy and PyTorch alone:

  /usr/bin/python3 formats/src/test/python/make_megatron_fixtures.py \
      /path/to/Megatron-LM/megatron/core/datasets/indexed_dataset.py

Writes formats/src/test/resources/megatron/NAME.bin, NAME.idx and NAME.txt, the listing the tests
compare with: line 1 the NumPy dtype, line 2 the document indices, line 3 the sequence modes (or
"-"), then one line per sequence with its tokens in decimal.

The committed fixtures were made from Megatron-LM commit d98e8a64 (2026-08-22).
Deterministic (seed 18): running it again rewrites the same bytes.
"""
import importlib.util
import os
import sys
import types

import numpy as np
import torch


def stub(name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module


class _LocalFiles:
    """maybe_msc: Megatron's multi-storage client, here plain local files."""

    @staticmethod
    def open(path, mode="rb"):
        return open(path, mode)


def _unused(*args, **kwargs):
    raise NotImplementedError("object storage is not used by the fixtures")


for pkg in ("megatron", "megatron.core", "megatron.core.datasets"):
    stub(pkg, __path__=[])
stub("megatron.core.datasets.object_storage_utils", S3Config=object, ObjectStorageConfig=object,
     cache_index_file=_unused, dataset_exists=_unused, get_index_cache_path=_unused,
     get_object_storage_access=_unused, is_object_storage_path=lambda path: False, parse_s3_path=_unused)
stub("megatron.core.msc_utils", MultiStorageClientFeature=object, maybe_msc=_LocalFiles)
stub("megatron.core.utils", log_single_rank=lambda logger, level, msg: None)

spec = importlib.util.spec_from_file_location("megatron.core.datasets.indexed_dataset", sys.argv[1])
indexed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(indexed)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "megatron")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(18)


def tokens(dtype, n):
    info = np.iinfo(dtype)
    # the extremes of the type, then random values over its whole range
    edge = [info.min, info.max, 0][: min(n, 3)]
    rest = rng.integers(info.min, int(info.max) + 1, size=n - len(edge), dtype=np.int64)
    return np.array(edge + rest.tolist(), dtype=dtype)


def write(name, dtype, multimodal=False, documents=9, empty=False):
    prefix = os.path.join(OUT, name)
    builder = indexed.IndexedDatasetBuilder(prefix + ".bin", dtype=dtype, multimodal=multimodal)
    sequences, modes = [], []
    for d in range(0 if empty else documents):
        if d == 3:
            builder.end_document()  # a document of no sequences
            continue
        count = int(rng.integers(1, 4))
        lengths = [0 if (d == 5 and k == 0) else int(rng.integers(1, 40)) for k in range(count)]
        parts = [tokens(dtype, n) for n in lengths]
        doc_modes = [int(rng.integers(0, 3)) for _ in lengths]
        if d % 2 == 0:
            # sequence by sequence, as preprocess_data.py with --split-sentences
            for part, mode in zip(parts, doc_modes):
                builder.add_item(torch.from_numpy(part.astype(np.int64)), mode)
            builder.end_document()
        else:
            # a whole document at once
            builder.add_document(torch.from_numpy(np.concatenate(parts).astype(np.int64)), lengths,
                                 doc_modes if multimodal else None)
        sequences += parts
        modes += doc_modes
    builder.finalize(prefix + ".idx")
    with open(prefix + ".txt", "w") as listing:
        listing.write(np.dtype(dtype).name + "\n")
        listing.write(" ".join(str(i) for i in builder.document_indices) + "\n")
        listing.write((" ".join(str(m) for m in modes) if multimodal else "-") + "\n")
        for s in sequences:
            listing.write(" ".join(str(int(t)) for t in s) + "\n")


for dtype in (np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64):
    write(np.dtype(dtype).name, dtype)
write("multimodal_int32", np.int32, multimodal=True)
write("empty_uint16", np.uint16, empty=True)
