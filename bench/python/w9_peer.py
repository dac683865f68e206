#!/usr/bin/python3
"""PyTorch's side of W9 (sft-packing), beside `stoker bench --workload W9`.

Fine-tuning packing as a PyTorch user writes it: the pre-tokenized examples read from the JSONL
once (json.loads per line, in __init__), packed whole into rows of 2048 by first-fit-decreasing
over seeded windows of 1,000 examples (TRL's and Stoker's rule), and each row built in
__getitem__ as input_ids, labels (-100 on each example's first token and on padding),
position_ids (restarting per example) and attention_mask, int64; DataLoader with batch 8,
shuffle=True, the default collate. Timed as every peer: the loader's epoch only (reading the
file and packing are __init__, untimed, as Stoker's indexing and planning are).

The data is Stoker's: `./stoker bench --workload W9` writes it once to
~/.cache/stoker/bench-data/w9-sft-10000.jsonl (or $XDG_CACHE_HOME/stoker/bench-data/...).

  /usr/bin/python3 bench/python/w9_peer.py --workers 0
  /usr/bin/python3 bench/python/w9_peer.py --workers 2
Needs torch and the shared peers folder (--peers, default ../shared/peers beside this checkout)
for the harness (null consumer, timing, memory).
"""
import argparse, json, os, sys, time
from peers_folder import default_peers

ap = argparse.ArgumentParser()
ap.add_argument("--workers", type=int, default=0)
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--file", default=os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                               "stoker", "bench-data", "w9-sft-10000.jsonl"))
ap.add_argument("--peers", default=default_peers(), help="the PyTorch peers' folder (default: PEERS, else shared/peers beside this checkout or above it)")
a = ap.parse_args()
sys.path.insert(0, os.path.abspath(a.peers))

import torch
from torch.utils.data import Dataset
from common import run_reps
from epochs import timed_epoch

SEQ_LEN, WINDOW, BATCH = 2048, 1000, 8


class PackedSFT(Dataset):
    def __init__(self, path, seq_len=SEQ_LEN, window=WINDOW, seed=0):
        with open(path) as f:
            self.examples = [json.loads(line)["input_ids"] for line in f]
        self.seq_len = seq_len
        # first-fit-decreasing over windows of a seeded shuffle of the examples
        order = torch.randperm(len(self.examples), generator=torch.Generator().manual_seed(seed)).tolist()
        self.rows = []
        for w in range(0, len(order), window):
            chunk = sorted(order[w:w + window], key=lambda i: -len(self.examples[i]))
            rows, free = [], []
            for i in chunk:
                n = min(len(self.examples[i]), seq_len)
                for r, room in enumerate(free):
                    if room >= n:
                        rows[r].append(i)
                        free[r] -= n
                        break
                else:
                    rows.append([i])
                    free.append(seq_len - n)
            self.rows += rows
        real = sum(min(len(e), seq_len) for e in self.examples)
        self.efficiency = real / (len(self.rows) * seq_len)

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        L = self.seq_len
        input_ids = torch.zeros(L, dtype=torch.long)
        labels = torch.full((L,), -100, dtype=torch.long)
        position_ids = torch.zeros(L, dtype=torch.long)
        attention_mask = torch.zeros(L, dtype=torch.long)
        at = 0
        for e in self.rows[i]:
            ids = torch.tensor(self.examples[e][:L], dtype=torch.long)
            n = len(ids)
            input_ids[at:at + n] = ids
            labels[at + 1:at + n] = ids[1:]
            position_ids[at:at + n] = torch.arange(n)
            attention_mask[at:at + n] = 1
            at += n
        position_ids[at:] = torch.arange(L - at)
        return input_ids, labels, position_ids, attention_mask


def main():
    if not os.path.exists(a.file):
        sys.exit(f"{a.file} is missing: run `./stoker bench --workload W9` once, it writes the examples")
    t0 = time.perf_counter()
    ds = PackedSFT(a.file)
    print(f"W9: {len(ds.examples):,} examples packed into {len(ds):,} rows of {SEQ_LEN} "
          f"({100 * ds.efficiency:.2f}% real tokens) in {time.perf_counter() - t0:.1f} s (untimed)", flush=True)
    kw = dict(batch_size=BATCH, shuffle=True, num_workers=a.workers)
    if a.workers:
        kw["prefetch_factor"] = 2

    run_once = timed_epoch(ds, **kw)

    run_reps("W9", f"nw={a.workers}", run_once, reps=a.reps, bytes_per_run=len(ds) * 4 * SEQ_LEN * 8,
             extra={"packing_efficiency": ds.efficiency, "rows": len(ds)})


if __name__ == "__main__":
    main()
