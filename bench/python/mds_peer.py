#!/usr/bin/python3
"""MosaicML Streaming's side of the MDS workloads, beside `stoker bench --workload W2-MDS|W3-MDS`.

W2-MDS and W3-MDS are W2 and W3 of the shared WORKLOADS.md with the data in MDS shards instead of
tokens.bin and the JPEG folder: the same windows and images, the same work per sample, the same
batches. Stoker writes the shards the first time its workload runs (DIR/mds-tokens, DIR/mds-jpeg);
this script reads them with Streaming's StreamingDataset under PyTorch's DataLoader, the way
Streaming's documentation sets it up, and reports through the shared peers' harness.

  PEER_DATA=DIR /usr/bin/python3 bench/python/mds_peer.py --workload W3-MDS --workers 2
Needs: mosaicml-streaming (pip install mosaicml-streaming), torch, torchvision, and the shared
peers folder (--peers, default ../shared/peers beside this checkout) for the harness and W3's
transform.
"""
import argparse, os, sys
from peers_folder import default_peers

ap = argparse.ArgumentParser()
ap.add_argument("--workload", required=True, choices=["W2-MDS", "W3-MDS"])
ap.add_argument("--workers", type=int, default=0)
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--peers", default=default_peers(), help="the PyTorch peers' folder (default: PEERS, else shared/peers beside this checkout or above it)")
a = ap.parse_args()
sys.path.insert(0, os.path.abspath(a.peers))

import numpy as np
import torch

from streaming import StreamingDataset
from streaming.base.util import clean_stale_shared_memory
from common import run_reps
from epochs import timed_epoch
from bench import img_transform, prewarm

DATA = os.environ.get("PEER_DATA", "bench-data")
BATCH = 64


class TokenWindows(StreamingDataset):
    """W2's sample from an MDS row: the 2,049-token window as input and target, int64."""

    def __getitem__(self, i):
        t = torch.from_numpy(super().__getitem__(i)["tokens"].astype(np.int64))
        return t[:-1], t[1:]


class Images(StreamingDataset):
    """W3's sample from an MDS row: Streaming decodes the jpeg column to a PIL image."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.transform = img_transform()

    def __getitem__(self, i):
        s = super().__getitem__(i)
        return self.transform(s["jpg"].convert("RGB")), int(s["cls"])


def main():
    folder = {"W2-MDS": "mds-tokens", "W3-MDS": "mds-jpeg"}[a.workload]
    local = os.path.join(DATA, folder)
    if not os.path.exists(os.path.join(local, "index.json")):
        sys.exit(f"{local}/index.json is missing: run `./stoker bench --workload {a.workload} --data {DATA}` once, it writes the shards")
    clean_stale_shared_memory()
    if a.workload == "W2-MDS":  # W2 reads its windows in order
        ds = TokenWindows(local=local, shuffle=False, batch_size=BATCH)
    else:
        ds = Images(local=local, shuffle=True, shuffle_seed=0, batch_size=BATCH)
    kw = dict(batch_size=BATCH, num_workers=a.workers)
    if a.workers:
        kw["prefetch_factor"] = 2

    run_once = timed_epoch(ds, **kw)

    extra = prewarm(local)
    extra["reader"] = "mosaicml-streaming"
    nbytes = 12_800 * 2 * 2048 * 8 if a.workload == "W2-MDS" else None
    run_reps(a.workload, f"nw={a.workers}", run_once, reps=a.reps, bytes_per_run=nbytes, extra=extra)


if __name__ == "__main__":
    main()
