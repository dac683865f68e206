#!/usr/bin/python3
"""PyTorch's time to the first batch, the peer of `stoker bench`'s cold first-batch figures.

One fresh process per measurement (the first DataLoader a training job builds), W1 (DelayDS,
batch 32) or W3 (ImageFolder + W3's transform, batch 64), shuffled, num_workers=N,
prefetch_factor=2, as peers/bench.py defines them. Prints one JSON line with:
  iter_to_first_ms     iter(loader) -> first batch received (forks the workers: "worker start-up")
  later_iter_to_first_ms  the same for the 2nd and 3rd iter() of that loader (workers forked again,
                       the process warm), as a job sees it at the start of its later epochs
  process_to_first_ms  the process's start (from /proc/self/stat) -> first batch received
                       (the interpreter, `import torch`, the dataset and the loader included)

  PEER_DATA=DIR /usr/bin/python3 bench/python/first_batch_peer.py --workload W3 --workers 2
"""
import argparse, os, sys, time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_start_wall():
    """The wall-clock time this process started, from /proc (boot time + start ticks)."""
    with open("/proc/self/stat") as f:
        start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/stat") as f:
        btime = next(int(line.split()[1]) for line in f if line.startswith("btime"))
    return btime + start_ticks / CLOCK_TICKS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workload", choices=["W1", "W3"], required=True)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    import torch
    from torch.utils.data import DataLoader
    from peers_folder import default_peers
    peers = default_peers()
    sys.path.insert(0, peers)
    import bench  # peers/bench.py: the workloads' datasets and transforms
    if args.workload == "W1":
        ds, batch = bench.DelayDS(), 32
    else:
        import torchvision
        ds = torchvision.datasets.ImageFolder(os.path.join(os.environ.get("PEER_DATA", "bench-data"), "jpeg"),
                                              transform=bench.img_transform())
        batch = 64
    g = torch.Generator()
    g.manual_seed(0)
    loader = DataLoader(ds, batch_size=batch, shuffle=True, generator=g, num_workers=args.workers,
                        prefetch_factor=2 if args.workers > 0 else None)
    firsts, wall = [], None
    for epoch in range(3):
        t0 = time.perf_counter()
        it = iter(loader)
        first = next(it)
        firsts.append(1000 * (time.perf_counter() - t0))
        if wall is None:
            wall = time.time()
        bench.consume(first)
        del it  # stops the workers; the next iter() forks them again, as at each epoch's start
    print('{"workload": "%s", "num_workers": %d, "iter_to_first_ms": %.1f, "later_iter_to_first_ms": [%.1f, %.1f], '
          '"process_to_first_ms": %.1f, "loadavg_1m": %.2f}' % (args.workload, args.workers, firsts[0], firsts[1],
                                                                firsts[2], 1000 * (wall - process_start_wall()),
                                                                os.getloadavg()[0]), flush=True)

if __name__ == "__main__":
    main()
