#!/usr/bin/python3
"""Writes JPEGs in the chroma subsamplings Pillow cannot write (4:2:2 it can, 4:4:0 and 4:1:1 not),
for the tests of decoding only a region: libjpeg-turbo's own cjpeg makes them.

    CJPEG=/path/to/cjpeg /usr/bin/python3 vision/src/test/python/make_subsampling_fixtures.py

cjpeg comes with libjpeg-turbo (Debian: libjpeg-turbo-progs; or a build of libjpeg-turbo 3,
which the region tests want anyway). Writes vision/src/test/resources/dev/stoker/vision/decode/
sub_{422,440,411}.jpg and progressive_422.jpg, 61x47 (not whole MCUs, so that the edge MCUs
are partial), from make_fixtures.py's picture. The tests compare decodes with each other, so no
reference pixels are written.
"""
import io, os, subprocess
from make_fixtures import ROOT, picture, write

CJPEG = os.environ.get("CJPEG", "cjpeg")


def main():
    buf = io.BytesIO()
    picture(61, 47, 5).save(buf, "PPM")
    ppm = buf.getvalue()
    d = os.path.join(ROOT, "decode")
    for name, args in [("sub_422.jpg", ["-sample", "2x1"]), ("sub_440.jpg", ["-sample", "1x2"]),
                       ("sub_411.jpg", ["-sample", "4x1"]),
                       ("progressive_422.jpg", ["-sample", "2x1", "-progressive"])]:
        jpeg = subprocess.run([CJPEG, "-quality", "90", *args], input=ppm, capture_output=True, check=True).stdout
        write(os.path.join(d, name), jpeg)


if __name__ == "__main__":
    main()
