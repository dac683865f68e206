#!/usr/bin/python3
"""Joins AugmentBenchmark's JMH CSV (-rf csv) and augment_ops.py's --csv into one markdown table:
per op, Stoker's and torchvision/PIL's microseconds per call and their ratio (torchvision over
Stoker: above 1, Stoker is faster). A row is an op on one side's name: AugmentBenchmark.op's
"op" parameter, else the benchmark method's name, as augment_ops.py names its rows; a row only
one side has is shown with a dash on the other.

  /usr/bin/python3 bench/python/augment_table.py STOKER.csv TORCH.csv
"""
import csv
import sys

TO_US = {"ns/op": 1e-3, "us/op": 1.0, "ms/op": 1e3, "s/op": 1e6}


def stoker_rows(path):
    """{name: microseconds} from JMH's CSV (AverageTime rows)."""
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            unit = r["Unit"]
            if unit not in TO_US:
                raise SystemExit(f"{path}: {r['Benchmark']} is in {unit}; run AugmentBenchmark in its own mode "
                                 f"(average time), not -bm {r['Mode']}")
            name = r.get("Param: op") or r["Benchmark"].rsplit(".", 1)[-1]
            out[name] = float(r["Score"]) * TO_US[unit]
    return out


def torch_rows(path):
    """{name: microseconds} from augment_ops.py --csv, in its order."""
    with open(path, newline="") as f:
        return {r["name"]: float(r["us"]) for r in csv.DictReader(f)}


def table(stoker, torch):
    lines = ["| op | Stoker µs | torchvision/PIL µs | torchvision / Stoker |", "|---|---:|---:|---:|"]
    for name in list(torch) + [n for n in stoker if n not in torch]:
        s, t = stoker.get(name), torch.get(name)
        ratio = f"{t / s:.2f}x" if s and t else "-"
        lines.append(f"| {name} | {fmt(s)} | {fmt(t)} | {ratio} |")
    return "\n".join(lines)


def fmt(v):
    return "-" if v is None else f"{v:.1f}"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(table(stoker_rows(sys.argv[1]), torch_rows(sys.argv[2])))
