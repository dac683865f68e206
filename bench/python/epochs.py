"""The timed epoch every peer here runs, as a user times one: a fresh DataLoader over the dataset
each repetition (seeded by it), every batch consumed; returns what peers/common.py's run_reps
takes, (seconds, samples). Import it after peers/ is on sys.path (it uses common.consume)."""
import time

import torch
from torch.utils.data import DataLoader

from common import consume


def timed_epoch(ds, **loader_kw):
    """run_once(rep) for run_reps: one epoch of DataLoader(ds, **loader_kw)."""
    def run_once(rep):
        torch.manual_seed(rep)
        loader = DataLoader(ds, **loader_kw)
        n, t0 = 0, time.perf_counter()
        for b in loader:
            n += consume(b)[1]
        t = time.perf_counter() - t0
        del loader
        return t, n
    return run_once
