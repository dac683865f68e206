"""Runs a command and reports the peak memory of its process tree, the way the PyTorch peers'
harness reports its own (peers/common.py's TreeMem): the sum of Pss (and of VmRSS) over the
process and all its descendants, sampled every --interval seconds from outside. PSS splits
shared pages between the processes that map them, so its sum is the tree's footprint; RSS counts
them once per process. Peaks shorter than the interval can be missed.

    python3 bench/python/tree_memory.py -- ./stoker bench -w W3 --data DIR -c 'nw=2 fill' --reps 3 --json

The command's own output passes through; the last line printed is this tool's JSON:
{"peak_tree_pss_mb": ..., "peak_tree_rss_mb": ..., "max_procs": ..., "exit": ...}
"""
import argparse, json, os, subprocess, sys, time


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def tree(pid):
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo += children(p)
    return seen


def kib(path, key):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--interval", type=float, default=0.1)
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command given (put it after --)")
    child = subprocess.Popen(cmd)
    peak_pss = peak_rss = max_procs = 0
    while child.poll() is None:
        pids = tree(child.pid)
        peak_rss = max(peak_rss, sum(kib(f"/proc/{p}/status", "VmRSS:") for p in pids))
        peak_pss = max(peak_pss, sum(kib(f"/proc/{p}/smaps_rollup", "Pss:") for p in pids))
        max_procs = max(max_procs, len(pids))
        time.sleep(a.interval)
    sys.stdout.flush()
    print(json.dumps({"peak_tree_pss_mb": round(peak_pss / 1024, 1), "peak_tree_rss_mb": round(peak_rss / 1024, 1),
                      "max_procs": max_procs, "exit": child.returncode}))
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
