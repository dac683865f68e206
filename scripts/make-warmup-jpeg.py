"""Writes vision/src/main/resources/dev/stoker/vision/decode/warmup.jpg: the small JPEG a new JVM's
decoder decodes once in the background (DecodeWarmup), so that the first batch's images do not
pay for the first calls into libjpeg-turbo. Baseline, 4:2:0, quality 90, as most training JPEGs
are; 64x48, a gradient with edges so that every block has AC coefficients.

    /usr/bin/python3 scripts/make-warmup-jpeg.py
"""
import os
from PIL import Image

w, h = 64, 48
img = Image.new("RGB", (w, h))
img.putdata([((x * 4) % 256, (y * 5) % 256, ((x ^ y) * 8) % 256) for y in range(h) for x in range(w)])
out = os.path.join(os.path.dirname(__file__), "..", "vision", "src", "main", "resources", "dev", "stoker",
                   "vision", "decode", "warmup.jpg")
img.save(out, "JPEG", quality=90, subsampling=2)   # 2 = 4:2:0
print(out, os.path.getsize(out), "bytes")
