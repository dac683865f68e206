"""Where the PyTorch peers' harness (../shared/peers: bench.py, common.py, gen_data.py) is.

PEERS names it; otherwise the nearest shared/peers folder beside this checkout or one of the
folders above it, so that a git worktree (say /work/wt/NAME, with the peers at /work/shared/peers)
finds it as the main checkout does.
"""
import os


def default_peers():
    if os.environ.get("PEERS"):
        return os.environ["PEERS"]
    here = os.path.dirname(os.path.abspath(__file__))
    d = here
    while True:
        candidate = os.path.join(d, "shared", "peers")
        if os.path.isfile(os.path.join(candidate, "bench.py")):
            return candidate
        parent = os.path.dirname(d)
        if parent == d:
            # not found: the old default, so the error names the place a reader expects
            return os.path.join(here, "..", "..", "..", "shared", "peers")
        d = parent
