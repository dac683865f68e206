#!/usr/bin/env python3
"""Writes the JSONL fixtures of the formats module's tests with Python's json module.

Run from anywhere:  python3 formats/src/test/python/make_jsonl_fixtures.py
Writes formats/src/test/resources/jsonl/:

  python.jsonl      one json.dumps(obj) per line, objects with a "text" field among others:
                    escapes, control characters, surrogate pairs and lone surrogates (ensure_ascii
                    on and off), nested objects with their own "text", NaN and Infinity, repeated keys;
  python.jsonl.gz   the same bytes, gzip-compressed (mtime 0);
  python.jsonl.zst  the same bytes, compressed by the zstd command line (zstd -19), when it is installed;
  python.expected   per line, the "text" value as json.loads reads it, in UTF-16 code units
                    (big-endian hex, "-" for an empty string), so lone surrogates compare exactly.

Deterministic (seed 18): running it again rewrites the same bytes.
"""
import gzip
import shutil
import subprocess
import json
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "jsonl")
os.makedirs(OUT, exist_ok=True)
rng = random.Random(18)

texts = [
    "plain ascii",
    "",
    'quotes " and \\ backslash / slash',
    "control \b\f\n\r\t and \x00\x01\x1f",
    "caf\u00e9 \u00fc\u00df \u4e2d\u6587 \u0939\u093f\u0928\u094d\u0926\u0940",
    "emoji \U0001F600 and \U0001F9D1\u200D\U0001F4BB pairs",
    "lone surrogates \ud800 and \udfff",
    "\u2028 line and paragraph \u2029 separators",
    "x" * 5000,
]
# random unicode strings over the whole range of code points, surrogates included
for _ in range(30):
    chars = []
    for _ in range(rng.randint(0, 40)):
        plane = rng.random()
        if plane < 0.4:
            chars.append(chr(rng.randint(0x20, 0x7E)))
        elif plane < 0.6:
            chars.append(chr(rng.randint(0, 0x1F)))
        elif plane < 0.8:
            chars.append(chr(rng.randint(0x80, 0xFFFF)))
        else:
            chars.append(chr(rng.randint(0x10000, 0x10FFFF)))
    texts.append("".join(chars))

lines = []
for i, t in enumerate(texts):
    obj = {"id": i, "meta": {"text": "not this one", "list": [1, -2.5e-3, None, True, False, {"text": "nor this"}]},
           "text": t, "score": [float("nan"), float("inf"), float("-inf"), 1e300, -0.0][i % 5]}
    if i % 3 == 1:
        obj = {"text": t, **{k: v for k, v in obj.items() if k != "text"}}  # the field first
    # a lone surrogate has no UTF-8 form: json.dumps must escape it (ensure_ascii) for a UTF-8 file
    ascii = i % 2 == 0 or any(0xD800 <= ord(c) <= 0xDFFF for c in t)
    if i % 4 == 3:
        line = json.dumps(obj, ensure_ascii=ascii, separators=(",", ":"))  # compact
    else:
        line = json.dumps(obj, ensure_ascii=ascii)
    if i == 7:
        line = '{"text": "first", "id": 7, "text": ' + json.dumps(t) + "}"  # a repeated key: the last wins
    assert json.loads(line)["text"] == t
    lines.append(line)

data = ("\n".join(lines) + "\n").encode("utf-8")  # strict: the file is valid UTF-8
with open(os.path.join(OUT, "python.jsonl"), "wb") as f:
    f.write(data)
with open(os.path.join(OUT, "python.jsonl.gz"), "wb") as f:
    f.write(gzip.compress(data, mtime=0))
if shutil.which("zstd"):
    subprocess.run(["zstd", "-q", "-19", "-f", os.path.join(OUT, "python.jsonl"), "-o",
                    os.path.join(OUT, "python.jsonl.zst")], check=True)
with open(os.path.join(OUT, "python.expected"), "w") as f:
    for line in lines:
        t = json.loads(line)["text"]
        f.write((t.encode("utf-16-be", "surrogatepass").hex() or "-") + "\n")
