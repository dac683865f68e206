"""Builds the SentencePiece WORD and CHAR fixtures of text-tokenizers' tests, and the ids Python gives.

Trained on the same seeded corpus as make_tokenizers.py (its `sentence` generator), checked on its
corpus.txt, which this script reads and does not rewrite:
  sp-word.model     SentencePiece WORD, identity normalization, vocabulary 120 (the rarer words unknown)
  sp-char.model     SentencePiece CHAR, identity normalization, vocabulary 80, user-defined
                    symbols "<sep>" and "tok" (matched before a character is taken)
  sp-bpe-unk.model  SentencePiece BPE without byte fallback, identity normalization, vocabulary 300: runs of unknown pieces
                    come out as one unknown id, as for the two above
  NAME.ids          one line of ids per corpus line, from SentencePieceProcessor.encode

Run with a Python that has `sentencepiece` and `tokenizers` (pyenv's pip installs both):
  python3 src/test/python/make_sp_word_char.py src/test/resources/tokenizers
"""
import os
import random
import sys

import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_tokenizers import sentence, write_ids  # noqa: E402


def main(out):
    rng = random.Random(18)
    train = [sentence(rng, 0.05) for _ in range(20000)]  # the first draws of make_tokenizers.py's generator
    with open(os.path.join(out, "corpus.txt"), encoding="utf-8") as f:
        check = f.read()[:-1].split("\n")
    for name, kind, vocab, extra in (
            ("sp-word", "word", 120, dict(normalization_rule_name="identity")),
            ("sp-char", "char", 80, dict(normalization_rule_name="identity", user_defined_symbols=["<sep>", "tok"])),
            ("sp-bpe-unk", "bpe", 300, dict(normalization_rule_name="identity", character_coverage=0.98))):
        args = dict(character_coverage=0.995)
        args.update(extra)
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(train), model_prefix=os.path.join(out, name), model_type=kind,
            vocab_size=vocab, bos_id=1, eos_id=2, unk_id=0, pad_id=-1, minloglevel=2, **args)
        os.remove(os.path.join(out, name + ".vocab"))
        sp = spm.SentencePieceProcessor(model_file=os.path.join(out, name + ".model"))
        write_ids(out, name, [sp.encode(t) for t in check])


if __name__ == "__main__":
    main(sys.argv[1])
