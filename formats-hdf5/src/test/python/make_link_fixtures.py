"""Writes the HDF5 link fixtures under src/test/resources/hdf5/links with h5py (Debian: python3-h5py).

Run: /usr/bin/python3 src/test/python/make_link_fixtures.py   (from formats-hdf5/)
A file names other files and paths by itself through its links; Stoker follows soft links inside
the file and refuses external links, whose target file the file's author chose.
  external.h5: /data is an external link to other.h5:/data (other.h5 beside it holds a real array),
               /group is an external link to other.h5:/ (so /group/data goes through it too),
               /labels is a real array of 4 int64.
  soft.h5:     /real holds 4 int64 (0, 7, 14, 21); /alias is a soft link to /real, /loop a soft link
               to itself, /far a soft link to /group/data where /group is an external link.
"""
import os
import numpy as np
import h5py

OUT = os.path.join(os.path.dirname(__file__), "..", "resources", "hdf5", "links")
os.makedirs(OUT, exist_ok=True)

with h5py.File(os.path.join(OUT, "other.h5"), "w", libver="earliest") as f:
    f["data"] = np.arange(12, dtype=np.float32).reshape(4, 3)

with h5py.File(os.path.join(OUT, "external.h5"), "w", libver="earliest") as f:
    f["data"] = h5py.ExternalLink("other.h5", "/data")
    f["group"] = h5py.ExternalLink("other.h5", "/")
    f["labels"] = np.arange(4, dtype=np.int64)

with h5py.File(os.path.join(OUT, "soft.h5"), "w", libver="earliest") as f:
    f["real"] = np.arange(4, dtype=np.int64) * 7
    f["alias"] = h5py.SoftLink("/real")
    f["loop"] = h5py.SoftLink("/loop")
    f["group"] = h5py.ExternalLink("other.h5", "/")
    f["far"] = h5py.SoftLink("/group/data")
