"""Writes the MDS fixtures of formats-mds with MosaicML Streaming's own MDSWriter.

Run with mosaicml-streaming from its repository at commit 89e7bb9 (PyPI was unreachable when the
fixtures were made), with stand-ins on PYTHONPATH for the modules the writer imports but does not
use here (brotli, snappy, xxhash, tqdm, ...; the zstd stand-in calls the zstd command line tool,
which writes the same standard frame as python-zstd):

    cd formats-mds/src/test/resources/mds
    PYTHONPATH=$STUBS:$STREAMING_REPO python3 make_fixtures.py

Beside each set it writes expected.json: every sample's values as the writer was given them, in
a form the Java tests compare against (bytes as hex, arrays as dtype + shape + flat values).
"""
import json
import os
import pickle
import shutil
from decimal import Decimal
from io import BytesIO

import numpy as np
from PIL import Image

from streaming.base.format.mds.writer import MDSWriter

HERE = os.path.dirname(os.path.abspath(__file__))

SCALAR_COLUMNS = {
    'raw': 'bytes', 'text': 'str', 'n': 'int',
    'i8': 'int8', 'i16': 'int16', 'i32': 'int32', 'i64': 'int64',
    'u8': 'uint8', 'u16': 'uint16', 'u32': 'uint32', 'u64': 'uint64',
    'f16': 'float16', 'f32': 'float32', 'f64': 'float64',
    'sint': 'str_int', 'sfloat': 'str_float', 'sdec': 'str_decimal',
    'meta': 'json', 'obj': 'pkl',
    'arr': 'ndarray', 'arr_i16': 'ndarray:int16', 'arr_fixed': 'ndarray:float32:2,3',
    'arr_u32': 'ndarray:uint32:4',
}


def scalar_sample(i, rng):
    dyn_dtype = ['uint8', 'int8', 'uint16', 'int16', 'float16', 'uint32', 'int32', 'float32',
                 'uint64', 'int64', 'float64'][i % 11]
    shape = [(3,), (2, 2), (1, 2, 3), (300,)][i % 4]  # (300,) needs a uint16 shape
    arr = (rng.rand(*shape) * 100).astype(dyn_dtype)
    return {
        'raw': bytes(rng.randint(0, 256, size=i % 5, dtype=np.uint8)),
        'text': 'sample %d: héllo ✓' % i if i % 3 else '',
        'n': (-1) ** i * (i * 1_000_000_007),
        'i8': np.int8(-128 + i), 'i16': np.int16(-30000 + i), 'i32': np.int32(-2**31 + i),
        'i64': np.int64(-2**63 + i),
        'u8': np.uint8(255 - i), 'u16': np.uint16(65535 - i), 'u32': np.uint32(2**32 - 1 - i),
        # sample 1 holds a uint64 past int64's range: Stoker refuses to narrow it
        'u64': np.uint64(2**64 - 1) if i == 1 else np.uint64(i * 12345),
        'f16': np.float16(i / 3), 'f32': np.float32(i / 7), 'f64': np.float64(i / 11),
        'sint': 10**30 + i, 'sfloat': i / 13, 'sdec': Decimal('1.%03d' % i),
        'meta': {'i': i, 'tags': ['a', 'b'][: i % 3]},
        'obj': ('pickled', i),
        'arr': arr,
        'arr_i16': np.arange(i + 1, dtype=np.int16).reshape(1, i + 1) - 5,
        'arr_fixed': (np.arange(6, dtype=np.float32) + i * 10).reshape(2, 3),
        'arr_u32': np.array([i, 2**32 - 1, 7, 2**31], dtype=np.uint32),
    }


def expect_value(enc, value):
    if enc == 'bytes':
        return value.hex()
    if enc in ('str', 'str_decimal'):
        return str(value)
    if enc == 'str_int':
        return str(value)
    if enc == 'str_float':
        return str(value)
    if enc == 'json':
        return json.dumps(value)
    if enc == 'pkl':
        return pickle.dumps(value).hex()
    if enc.startswith('ndarray'):
        return {'dtype': value.dtype.name, 'shape': list(value.shape),
                'values': [float(v) if value.dtype.kind == 'f' else int(v) for v in value.ravel()]}
    if enc in ('jpeg', 'png', 'pil'):
        return encode_image(enc, value).hex()
    if enc.startswith('list[') or enc in ('jpeg_array', 'jpegarray'):
        inner = enc[5:-1] if enc.startswith('list[') else 'jpeg'
        return [encode_image(inner, v).hex() if not isinstance(v, bytes) else v.hex() for v in value]
    if enc.startswith('float'):
        return float(value)
    return int(value)


def encode_image(enc, img):
    if enc == 'pil':
        mode = img.mode.encode('utf-8')
        w, h = img.size
        return np.array([w, h, len(mode)], np.uint32).tobytes() + mode + img.tobytes()
    out = BytesIO()
    img.save(out, format='JPEG' if enc == 'jpeg' else 'PNG')
    return out.getvalue()


def write_set(name, columns, samples, **kwargs):
    out = os.path.join(HERE, name)
    shutil.rmtree(out, ignore_errors=True)
    with MDSWriter(out=out, columns=columns, **kwargs) as w:
        for s in samples:
            w.write(s)
    expected = {'columns': columns,
                'samples': [{k: expect_value(columns[k], s[k]) for k in columns} for s in samples]}
    with open(os.path.join(out, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)


def images(rng, n):
    out = []
    for i in range(n):
        px = rng.randint(0, 256, size=(6, 8, 3), dtype=np.uint8)
        gray = Image.fromarray(px[:, :, 0], mode='L')
        rgb = Image.fromarray(px, mode='RGB')
        # JPEG bytes made once, so the jpeg column and the jpeg_array column hold the same bytes
        out.append({
            'label': i,
            'jpg': rgb, 'png': gray, 'pil': rgb if i % 2 else gray,
            'jpgs': [rgb, gray][: 1 + i % 2], 'pngs': [gray] * (i % 3), 'pils': [gray],
            'jarr': [encode_image('jpeg', rgb), encode_image('jpeg', gray)],
        })
    return out


IMAGE_COLUMNS = {'label': 'int', 'jpg': 'jpeg', 'png': 'png', 'pil': 'pil', 'jpgs': 'list[jpeg]',
                 'pngs': 'list[png]', 'pils': 'list[pil]', 'jarr': 'jpeg_array'}


def main():
    rng = np.random.RandomState(1234)
    scalars = [scalar_sample(i, rng) for i in range(12)]
    common = dict(hashes=['md5', 'sha1'], size_limit=1500)
    write_set('scalars', SCALAR_COLUMNS, scalars, **common)
    write_set('scalars_zstd', SCALAR_COLUMNS, scalars, compression='zstd:7', **common)
    write_set('scalars_gz', SCALAR_COLUMNS, scalars, compression='gz', **common)
    write_set('images', IMAGE_COLUMNS, images(rng, 4), size_limit=4000)
    # A first sample larger than size_limit makes the writer flush an empty shard first.
    fixed = {'x': 'ndarray:float32:2,3', 'y': 'int', 'w': 'float16', 'u': 'uint32'}
    fixed_samples = [{'x': np.full((2, 3), i, np.float32) + np.arange(6, dtype=np.float32).reshape(2, 3),
                      'y': i * 3 - 7, 'w': np.float16(i / 4), 'u': np.uint32(4_000_000_000 + i)}
                     for i in range(9)]
    write_set('zero_shard', fixed, fixed_samples, size_limit=30, compression='zstd')
    # Streaming's split argument names a subdirectory with its own index.json.
    write_set('split/train', fixed, fixed_samples[:5], size_limit=200)
    write_set('split/val', fixed, fixed_samples[5:], size_limit=200)


if __name__ == '__main__':
    main()
