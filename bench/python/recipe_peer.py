#!/usr/bin/python3
"""PyTorch's side of W3-recipe, beside `stoker bench --workload W3-recipe`.

W3-recipe is W3 of the shared WORKLOADS.md (the same JPEG folder, batch 64, shuffled, one epoch)
with torchvision's reference ImageNet training recipe in place of W3's transform, written as a
torchvision 0.14 user writes it (its references/classification scripts): per image
RandomResizedCrop(224, bilinear), RandomHorizontalFlip, TrivialAugmentWide(bilinear), ToTensor,
Normalize(ImageNet), RandomErasing(0.1); per batch MixUp (alpha 0.2) or CutMix (alpha 1.0), one of
the two at random, on one-hot targets, in the DataLoader's collate_fn, so in the workers (0.14 has
no transforms.v2: the two are written here, as the reference scripts write them).

  PEER_DATA=DIR /usr/bin/python3 bench/python/recipe_peer.py --workers 2 --prefetch 2 --persistent
Needs torch 1.13, torchvision 0.14 (Debian's /usr/bin/python3 has both) and the shared peers
folder (--peers, default ../shared/peers beside this checkout) for the harness.
"""
import argparse, math, os, random, sys, time
from peers_folder import default_peers

ap = argparse.ArgumentParser()
ap.add_argument("--workers", type=int, default=2)
ap.add_argument("--prefetch", type=int, default=2)
ap.add_argument("--persistent", action="store_true")
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--samples", type=int, default=0, help="only the first N images (a smoke run); 0: all")
ap.add_argument("--peers", default=default_peers(), help="the PyTorch peers' folder (default: PEERS, else shared/peers beside this checkout or above it)")
a = ap.parse_args()
sys.path.insert(0, os.path.abspath(a.peers))

import torch
import torchvision
import torchvision.transforms as T
from torch.utils.data import DataLoader, Subset
from torch.utils.data.dataloader import default_collate
from common import consume, run_reps
from bench import prewarm

DATA = os.environ.get("PEER_DATA", "bench-data")
BATCH, CLASSES = 64, 10


def recipe():
    bilinear = T.InterpolationMode.BILINEAR
    return T.Compose([T.RandomResizedCrop(224, interpolation=bilinear), T.RandomHorizontalFlip(),
                      T.TrivialAugmentWide(interpolation=bilinear), T.ToTensor(),
                      T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
                      T.RandomErasing(p=0.1)])


class MixUp(torch.nn.Module):
    """Each image mixed with the batch rolled by one, lam ~ Beta(alpha, alpha); targets alike."""

    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, images, target):
        target = torch.nn.functional.one_hot(target, CLASSES).to(images.dtype)
        lam = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        images = images.roll(1, 0).mul_(1.0 - lam).add_(images.mul(lam))
        target = target.roll(1, 0).mul_(1.0 - lam).add_(target.mul(lam))
        return images, target


class CutMix(torch.nn.Module):
    """A box of area (1 - lam) of each image pasted from the batch rolled by one; targets by the box's real area."""

    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, images, target):
        target = torch.nn.functional.one_hot(target, CLASSES).to(images.dtype)
        lam = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        H, W = images.shape[-2:]
        cx, cy = int(torch.randint(W, (1,))), int(torch.randint(H, (1,)))
        r = 0.5 * math.sqrt(1.0 - lam)
        rw, rh = int(r * W), int(r * H)
        x1, y1, x2, y2 = max(cx - rw, 0), max(cy - rh, 0), min(cx + rw, W), min(cy + rh, H)
        images[:, :, y1:y2, x1:x2] = images.roll(1, 0)[:, :, y1:y2, x1:x2]
        lam = 1.0 - (x2 - x1) * (y2 - y1) / (W * H)
        target = target.roll(1, 0).mul_(1.0 - lam).add_(target.mul(lam))
        return images, target


MIX = T.RandomChoice([MixUp(0.2), CutMix(1.0)])


def mix_collate(batch):
    return MIX(*default_collate(batch))


def main():
    ds = torchvision.datasets.ImageFolder(f"{DATA}/jpeg", transform=recipe())
    if a.samples:
        ds = Subset(ds, range(a.samples))
    kw = dict(batch_size=BATCH, num_workers=a.workers, collate_fn=mix_collate, shuffle=True)
    if a.workers > 0:
        kw.update(prefetch_factor=a.prefetch, persistent_workers=a.persistent)
    config = f"nw={a.workers}" + (f",pf={a.prefetch}" if a.workers else "") + (",persistent" if a.persistent else "")

    def run_once(rep):
        random.seed(rep); torch.manual_seed(rep)
        g = torch.Generator().manual_seed(rep)
        loader = DataLoader(ds, generator=g, **kw)
        n, t0 = 0, time.perf_counter()
        for b in loader:
            n += consume(b)[1]
        t = time.perf_counter() - t0
        del loader  # shuts down persistent workers outside the timed region
        return t, n

    extra = prewarm(f"{DATA}/jpeg")
    extra["recipe"] = "rrc224+flip+ta_wide+normalize+erase0.1, mixup0.2/cutmix1.0 in collate"
    run_reps("W3-recipe", config, run_once, reps=a.reps, extra=extra)


if __name__ == "__main__":
    main()
