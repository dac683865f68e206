#!/usr/bin/python3
"""torchvision 0.14 / PIL's single-thread cost per op, beside Stoker's AugmentBenchmark (JMH), for
one table in BENCHMARKS.md: the same ops with the same parameters on a 224x224 RGB image of random
bytes (AugmentBenchmark's tile), each as torchvision's functional form runs it on a PIL image;
MixUp and CutMix on a (64, 3, 224, 224) f32 batch and (64, 1000) targets, as the reference
scripts write them; and the plain training transform against the reference recipe, decode
included, on a folder of JPEGs.

  /usr/bin/python3 bench/python/augment_ops.py [--images DIR] [--repeat 5] [--csv torch.csv] [--only OP,...]
Prints one line per op: microseconds per call (the best of --repeat runs of timeit's autorange),
and the matching AugmentBenchmark name. torch runs on one thread (torch.set_num_threads(1)).
--csv also writes the rows as "name,us" with AugmentBenchmark's names (the op parameter for
AugmentBenchmark.op, the method's name for the others), which bench/python/augment_table.py
joins with JMH's CSV into BENCHMARKS.md's table.
"""
import argparse, glob, io, math, os, timeit

ap = argparse.ArgumentParser()
ap.add_argument("--images", default=os.path.expanduser("~/.cache/stoker/bench-data/jpeg-w3-generated-2000"),
                help="a folder of JPEGs (searched recursively) for the train/recipe rows; the first 50 are used")
ap.add_argument("--repeat", type=int, default=5)
ap.add_argument("--csv", help="also write the rows here, as name,us")
ap.add_argument("--only", help="comma-separated names: measure only these rows (a smoke run)")
a = ap.parse_args()

import numpy as np
import torch
import torchvision.transforms as T
import torchvision.transforms.functional as F
from PIL import Image

torch.set_num_threads(1)
rng = np.random.default_rng(7)
img = Image.fromarray(rng.integers(0, 256, (224, 224, 3), dtype=np.uint8), "RGB")
NEAREST = T.InterpolationMode.NEAREST
BILINEAR = T.InterpolationMode.BILINEAR
only = set(a.only.split(",")) if a.only else None
rows = []  # (AugmentBenchmark's name, microseconds per call)

ops = {  # AugmentBenchmark.op's names and parameters
    "brightness": lambda: F.adjust_brightness(img, 1.3),
    "contrast": lambda: F.adjust_contrast(img, 1.3),
    "saturation": lambda: F.adjust_saturation(img, 1.3),
    "hue": lambda: F.adjust_hue(img, 0.1),
    "colorjitter": lambda: jitter(img),
    "sharpness": lambda: F.adjust_sharpness(img, 1.5),
    "grayscale": lambda: F.rgb_to_grayscale(img, 3),
    "invert": lambda: F.invert(img),
    "solarize": lambda: F.solarize(img, 128),
    "posterize": lambda: F.posterize(img, 4),
    "autocontrast": lambda: F.autocontrast(img),
    "equalize": lambda: F.equalize(img),
    "blur5": lambda: F.gaussian_blur(img, 5, 1.0),
    "blur23": lambda: F.gaussian_blur(img, 23, 1.0),
    "vflip": lambda: F.vflip(img),
    "rotate": lambda: F.rotate(img, 30, interpolation=NEAREST),
    "shear": lambda: F.affine(img, angle=0.0, translate=[0, 0], scale=1.0,
                              shear=[math.degrees(math.atan(0.3)), 0.0], interpolation=NEAREST, center=[0, 0]),
    "translate": lambda: F.affine(img, angle=0.0, translate=[12, -7], scale=1.0, shear=[0.0, 0.0],
                                  interpolation=NEAREST),
    "affine": lambda: F.affine(img, angle=15.0, translate=[10, -5], scale=1.1, shear=[5.0, 3.0],
                               interpolation=NEAREST),
    "perspective": lambda: F.perspective(img, [[0, 0], [223, 0], [223, 223], [0, 223]],
                                         [[10, 5], [215, 12], [220, 210], [3, 218]], interpolation=BILINEAR),
}
jitter = T.ColorJitter(0.4, 0.4, 0.4, 0.1)
aa = T.AutoAugment()  # the ImageNet policy, nearest
ops["autoaugment"] = lambda: aa(img)
ra = T.RandAugment()
ops["randaugment"] = lambda: ra(img)
ta = T.TrivialAugmentWide()
ops["trivialaugment"] = lambda: ta(img)
am = T.AugMix()  # torchvision 0.14's defaults (bilinear in its code): PIL in and out, uint8 tensor ops between
ops["augmix"] = lambda: am(img)


def best_us(fn):
    t = timeit.Timer(fn)
    n, _ = t.autorange()
    return min(t.repeat(repeat=a.repeat, number=n)) / n * 1e6


def row(kind, name, fn, jmh, note=""):
    """Measures fn unless --only leaves name out; prints the row and keeps it for --csv."""
    if only is not None and name not in only:
        return
    us = best_us(fn)
    rows.append((name, us))
    print(f"{kind:6s} {name:16s} {us:10.1f}   ({jmh}{note})", flush=True)


print(f"torch {torch.__version__}, torchvision {__import__('torchvision').__version__}, "
      f"PIL {Image.__version__}, 1 thread; microseconds per call")
for name, fn in ops.items():
    row("op", name, fn, f"AugmentBenchmark.op -p op={name}")

erased = torch.rand(3, 224, 224)  # RandomErasing's rectangle, as its forward calls F.erase: in place here, as Stoker's
zero = torch.zeros(3, 1, 1)
row("tensor", "erasing", lambda: F.erase(erased, 50, 60, 80, 70, zero, inplace=True), "AugmentBenchmark.erasing")

batch = torch.rand(64, 3, 224, 224)
target = torch.nn.functional.one_hot(torch.randint(0, 1000, (64,)), 1000).float()


def mixup():
    lam = 0.3
    batch.roll(1, 0).mul_(1.0 - lam).add_(batch.mul(lam))
    target.roll(1, 0).mul_(1.0 - lam).add_(target.mul(lam))


def cutmix():
    batch[:, :, 56:168, 56:168] = batch.roll(1, 0)[:, :, 56:168, 56:168]
    lam = 1.0 - 112 * 112 / (224 * 224)
    target.roll(1, 0).mul_(1.0 - lam).add_(target.mul(lam))


row("batch", "mixUp", mixup, "AugmentBenchmark.mixUp")
row("batch", "cutMix", cutmix, "AugmentBenchmark.cutMix")

files = sorted(glob.glob(os.path.join(a.images, "**", "*.jpg"), recursive=True))[:50]
if files:
    jpegs = [open(f, "rb").read() for f in files]
    normalize = T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    plain = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToTensor(), normalize])
    recipe = T.Compose([T.RandomResizedCrop(224, interpolation=BILINEAR), T.RandomHorizontalFlip(),
                        T.TrivialAugmentWide(interpolation=BILINEAR), T.ToTensor(), normalize, T.RandomErasing(0.1)])
    state = {"i": 0}

    def run(tf):
        def one():
            b = jpegs[state["i"] % len(jpegs)]
            state["i"] += 1
            tf(Image.open(io.BytesIO(b)).convert("RGB"))
        return one

    row("image", "train", run(plain), "AugmentBenchmark.train", f"; {len(files)} JPEGs of {a.images}")
    row("image", "recipe", run(recipe), "AugmentBenchmark.recipe")
else:
    print(f"no JPEGs under {a.images}: the train and recipe rows need --images DIR")

if a.csv:
    with open(a.csv, "w") as out:
        out.write("name,us\n")
        for name, us in rows:
            out.write(f"{name},{us:.3f}\n")
