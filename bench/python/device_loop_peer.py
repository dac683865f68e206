#!/usr/bin/env python3
"""PyTorch's side of `stoker cuda --loop [--gpu-decode]` (issue 21), written as a user would write it.

W3's images (ImageFolder, RandomResizedCrop 224 + flip + Normalize, batch 64) fed to a GPU step of
fixed length, two ways:
  cpu: torchvision's ImageFolder with the PIL transform in DataLoader workers, pin_memory=True,
       .cuda(non_blocking=True) in the loop: the standard recipe;
  gpu: the workers only read the files (torchvision.io.read_file); the main process decodes the
       batch with torchvision.io.decode_jpeg(list, device="cuda") (nvJPEG) and runs
       RandomResizedCrop + flip per image and Normalize on the GPU (torchvision.transforms.v2).
The step is torch.cuda._sleep(cycles) calibrated to the step length, on the current stream; the host
waits for the previous step before queuing the next (as a loop that reads its loss does). GPU idle
= 1 - busy / (GPU time from the first step's start to the last one's end), from CUDA events.
A step of 0 ms measures the loader alone. Each configuration runs one warm-up epoch, then one timed.

An epoch is the folder --passes times over (RandomSampler's num_samples), for a steady state at 15 workers.
Run (on the GPU machine): python3 bench/python/device_loop_peer.py --data DIR --workers 15 --steps 0,40,20,10
"""
import argparse, os, time
import torch
import torchvision
from torch.utils.data import DataLoader, Dataset, RandomSampler
from torchvision import datasets, transforms
from torchvision.transforms import v2

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


class FileBytes(Dataset):
    """The GPU recipe's dataset: the encoded file and its label; decoding waits for the GPU."""
    def __init__(self, root):
        self.folder = datasets.ImageFolder(root)

    def __len__(self):
        return len(self.folder.samples)

    def __getitem__(self, i):
        path, label = self.folder.samples[i]
        return torchvision.io.read_file(path), label


def bytes_collate(items):
    return [b for b, _ in items], torch.tensor([l for _, l in items])


def calibrate_sleep():
    """Cycles of torch.cuda._sleep per millisecond on this GPU."""
    torch.cuda._sleep(1000000)
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); torch.cuda._sleep(50_000_000); e.record(); e.synchronize()
    return 50_000_000 / s.elapsed_time(e)


def run_epoch(loader, prepare, step_ms, cycles_per_ms):
    """One epoch through the fixed-length step: (images, wall s, GPU idle fraction)."""
    cycles = int(step_ms * cycles_per_ms)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    done = [torch.cuda.Event(), torch.cuda.Event()]
    steps = images = 0
    t0 = time.perf_counter()
    for batch in loader:
        x, y = prepare(batch)
        if steps == 0:
            start.record()
        if cycles:
            torch.cuda._sleep(cycles)
        else:
            x.sum()  # touch the batch so the step depends on it
        done[steps % 2].record()
        if steps > 0:
            done[(steps + 1) % 2].synchronize()
        steps += 1
        images += y.shape[0]
    end.record()
    end.synchronize()
    wall = time.perf_counter() - t0
    gpu_ms = start.elapsed_time(end)
    idle = max(0.0, 1 - steps * step_ms / gpu_ms) if step_ms else float("nan")
    return images, wall, idle


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="a folder holding jpeg/ (W3's ImageFolder)")
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--steps", default="0,40,20,10", help="GPU step lengths in ms; 0 = no step")
    ap.add_argument("--mode", default="cpu,gpu")
    ap.add_argument("--passes", type=int, default=4, help="an epoch is the folder this many times, shuffled")
    a = ap.parse_args()
    root = os.path.join(a.data, "jpeg") if os.path.isdir(os.path.join(a.data, "jpeg")) else a.data
    cpm = calibrate_sleep()
    dev = torch.device("cuda")
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, {torch.cuda.get_device_name(0)},"
          f" {a.workers} workers, {root}")
    print(f"{'mode':>5} {'workers':>7} {'step ms':>8} {'images/s':>10} {'GPU idle':>9}")
    steps = [float(s) for s in a.steps.split(",")]
    if "cpu" in a.mode:
        tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(),
                                 transforms.ToTensor(), transforms.Normalize(MEAN, STD)])
        ds = datasets.ImageFolder(root, tf)
        for step in steps:
            loader = DataLoader(ds, batch_size=64, sampler=RandomSampler(ds, num_samples=a.passes * len(ds)),
                                num_workers=a.workers, pin_memory=True, persistent_workers=True)
            prep = lambda b: (b[0].to(dev, non_blocking=True), b[1].to(dev, non_blocking=True))
            run_epoch(loader, prep, step, cpm)
            n, wall, idle = run_epoch(loader, prep, step, cpm)
            print(f"{'cpu':>5} {a.workers:>7} {step:>8.1f} {n / wall:>10.1f} {100 * idle:>8.2f}%", flush=True)
            del loader
    if "gpu" in a.mode:
        # thousands of small byte tensors per epoch run out of file descriptors with the default
        # sharing strategy ("Bad file descriptor"); PyTorch's documented way out:
        torch.multiprocessing.set_sharing_strategy("file_system")
        ds = FileBytes(root)
        gpu_tf = v2.Compose([v2.RandomResizedCrop(224, antialias=True), v2.RandomHorizontalFlip()])
        mean = torch.tensor(MEAN, device=dev).view(1, 3, 1, 1)
        std = torch.tensor(STD, device=dev).view(1, 3, 1, 1)

        def prep(batch):
            files, labels = batch
            imgs = torchvision.io.decode_jpeg(files, mode=torchvision.io.ImageReadMode.RGB, device=dev)
            x = torch.stack([gpu_tf(im) for im in imgs]).float().div_(255)
            return (x - mean) / std, labels.to(dev, non_blocking=True)

        for workers in sorted({1, 2, 4, a.workers}):
            for step in (steps if workers == a.workers else [0.0]):
                loader = DataLoader(ds, batch_size=64, sampler=RandomSampler(ds, num_samples=a.passes * len(ds)),
                                    num_workers=workers, pin_memory=True, persistent_workers=True,
                                    collate_fn=bytes_collate)
                run_epoch(loader, prep, step, cpm)
                n, wall, idle = run_epoch(loader, prep, step, cpm)
                print(f"{'gpu':>5} {workers:>7} {step:>8.1f} {n / wall:>10.1f} {100 * idle:>8.2f}%", flush=True)
                del loader


if __name__ == "__main__":
    main()
