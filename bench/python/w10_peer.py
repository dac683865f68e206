#!/usr/bin/python3
"""W10 pretraining-from-text: PyTorch's side, and the generator of W10's data.

W10 (BENCHMARKS.md): JSONL text (DIR/w10/train-0000{0..3}.jsonl, 8,000 synthetic documents in 4
files, lengths long-tailed), tokenized in the loader's workers with a byte-level BPE
tokenizer.json that both sides load (Hugging Face `tokenizers` here, the same Rust library
through DJL on Stoker's side), each document followed by <|endoftext|>, concatenated and cut into
windows of 1,024 + 1 tokens (consecutive windows share one token, as Megatron's GPTDataset cuts
them): input and target (16, 1024) int64 per batch, one epoch.

This peer is written the way a user writes it: an IterableDataset that shards the files across
workers (worker w reads files w, w + W, ...), tokenizes its lines 64 at a time with
`encode_batch`, keeps a token buffer and yields windows as tensors; the default collate stacks
them.

Make the data (once; needs `tokenizers`, e.g. pyenv's python3 after `pip install tokenizers`):
  python3 bench/python/w10_peer.py --gen --root DIR
Run (Debian's python3 has torch; give it `tokenizers` without touching the system, e.g.
`pip install --target /tmp/w10py tokenizers` with pyenv's pip, both are CPython 3.11):
  PYTHONPATH=/tmp/w10py PEER_DATA=DIR /usr/bin/python3 bench/python/w10_peer.py --workers 2
"""
import argparse, json, math, os, random, sys
from peers_folder import default_peers

ap = argparse.ArgumentParser()
ap.add_argument("--gen", action="store_true", help="write DIR/w10 (the corpus and tokenizer.json) and exit")
ap.add_argument("--root", default=os.environ.get("PEER_DATA", "bench-data"))
ap.add_argument("--workers", type=int, default=0)
ap.add_argument("--prefetch", type=int, default=2)
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--peers", default=default_peers(), help="the PyTorch peers' folder (default: PEERS, else shared/peers beside this checkout or above it)")
a = ap.parse_args()

FILES, DOCS, SEQ, BATCH, CHUNK, VOCAB = 4, 8000, 1024, 16, 64, 16384
EOT = "<|endoftext|>"


# ---------------- data ----------------

def words(rng, n):
    """n pseudo-words built from syllables, a few with accents or in other scripts (byte-level BPE's multibyte path)."""
    syl = ["ka", "to", "ri", "men", "sa", "lo", "vi", "an", "der", "ul", "pre", "sto", "ker", "ing", "tion", "qu",
           "ze", "phi", "ba", "nu", "ex", "or", "im", "gra", "th", "ch", "ly", "est", "ou", "ai"]
    extra = ["é", "ü", "ñ", "ø", "ß", "語", "字", "мир", "λ", "😀"]
    out = set()
    while len(out) < n:
        w = "".join(rng.choice(syl) for _ in range(rng.choice([1, 1, 2, 2, 2, 3, 3, 4])))
        if rng.random() < 0.03:
            w += rng.choice(extra)
        out.add(w)
    return sorted(out)


def document(rng, vocab, cum):
    """Log-normal length (median 200 words, long tail, 5 to 5,000), Zipf-like word choice, sentences and paragraphs."""
    n = max(5, min(5000, int(math.exp(rng.gauss(math.log(200), 0.9)))))
    out, sentence = [], 0
    for i in range(n):
        w = vocab[min(len(vocab) - 1, int(len(vocab) * (rng.random() ** 3)))]  # skewed towards common words
        if sentence == 0:
            w = w.capitalize()
        sentence += 1
        if sentence > 5 and rng.random() < 0.12:
            w += rng.choice([".", ".", ".", "?", "!"])
            sentence = 0
            if rng.random() < 0.15:
                w += "\n\n"
        elif rng.random() < 0.05:
            w += ","
        out.append(w)
    return " ".join(out).replace("\n\n ", "\n\n") + "."


def gen(root):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    d = os.path.join(root, "w10")
    os.makedirs(d, exist_ok=True)
    rng = random.Random(1234)
    vocab = words(rng, 20000)
    texts = [document(rng, vocab, None) for _ in range(DOCS)]
    for f in range(FILES):
        with open(os.path.join(d, f"train-{f:05d}.jsonl"), "w", encoding="utf-8") as out:
            for t in texts[f::FILES]:
                out.write(json.dumps({"text": t}) + "\n")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts[:2000], trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=[EOT],
                                                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.save(os.path.join(d, "tokenizer.json"))
    n = sum(len(e.ids) + 1 for e in tok.encode_batch(texts))
    print(f"{d}: {DOCS} documents in {FILES} files, {n} tokens with <|endoftext|>, about {(n - 1) // SEQ} windows of {SEQ}")


# ---------------- the peer ----------------

def main():
    sys.path.insert(0, os.path.abspath(a.peers))
    import torch
    from torch.utils.data import IterableDataset, get_worker_info
    from tokenizers import Tokenizer
    from common import run_reps
    from epochs import timed_epoch
    from bench import prewarm

    d = os.path.join(a.root, "w10")
    if not os.path.exists(os.path.join(d, "tokenizer.json")):
        sys.exit(f"{d}/tokenizer.json is missing: make W10's data with `python3 {sys.argv[0]} --gen --root {a.root}`")
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".jsonl"))

    class TextWindows(IterableDataset):
        def __init__(self, files, tokenizer_file):
            self.files, self.tokenizer_file = files, tokenizer_file

        def __iter__(self):
            wi = get_worker_info()
            wid, nw = (wi.id, wi.num_workers) if wi else (0, 1)
            tok = Tokenizer.from_file(self.tokenizer_file)
            eot = tok.token_to_id(EOT)
            buf = []
            for path in self.files[wid::nw]:
                with open(path, encoding="utf-8") as f:
                    lines = []
                    for line in f:
                        lines.append(json.loads(line)["text"])
                        if len(lines) == CHUNK:
                            yield from self.windows(tok, lines, buf, eot)
                            lines = []
                    if lines:
                        yield from self.windows(tok, lines, buf, eot)

        @staticmethod
        def windows(tok, lines, buf, eot):
            for enc in tok.encode_batch(lines, add_special_tokens=False):
                buf.extend(enc.ids)
                buf.append(eot)
            start = 0
            while len(buf) - start >= SEQ + 1:
                w = torch.tensor(buf[start:start + SEQ + 1], dtype=torch.int64)
                yield w[:-1], w[1:]
                start += SEQ
            del buf[:start]

    ds = TextWindows(files, os.path.join(d, "tokenizer.json"))
    kw = dict(batch_size=BATCH, num_workers=a.workers)
    if a.workers:
        kw["prefetch_factor"] = a.prefetch

    run_once = timed_epoch(ds, **kw)

    extra = prewarm(d)
    run_reps("W10", f"nw={a.workers}" + (f",pf={a.prefetch}" if a.workers else ""), run_once, reps=a.reps,
             bytes_per_run=None, extra=extra)


if __name__ == "__main__":
    if a.gen:
        gen(a.root)
    else:
        main()
