"""Builds the tokenizer fixtures of text-tokenizers' tests, and the ids the Python libraries give.

No hub download is possible here, so every tokenizer is trained on a seeded synthetic corpus:
  bpe.json          byte-level BPE (GPT-2's scheme), vocabulary 1000, <|endoftext|>   (tokenizers)
  wordpiece.json    BERT's WordPiece with its normalizer, vocabulary 800, [UNK] [SEP]  (tokenizers)
  unigram.model     SentencePiece unigram, nmt_nfkc normalization, vocabulary 400      (sentencepiece)
  sp-bpe.model      SentencePiece BPE, identity normalization, byte fallback, 400      (sentencepiece)
  corpus.txt        300 lines to check against, Unicode included (not the training text)
  NAME.ids          for each tokenizer, one line of ids per corpus line (no special tokens)

Run with a Python that has `tokenizers` and `sentencepiece` (pyenv's pip installs both):
  python3 src/test/python/make_tokenizers.py src/test/resources/tokenizers
"""
import io
import os
import random
import sys

import sentencepiece as spm
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at which but have an "
         "they you were her she there been one all we their has would when if so no what up out who them time "
         "model data token window batch shuffle worker epoch gradient tensor loader memory").split()
UNICODE = ["café", "naïve", "Größe", "straße", "Ærø", "Ångström", "façade", "jalapeño", "ﬁne", "①②", "Ｆｕｌｌ",
           "日本語", "中文字符", "한국어", "Привет", "мир", "Ελληνικά", "עברית", "العربية", "हिन्दी", "ไทย",
           "😀", "🚀✨", "👩‍💻", "e\u0301", "ŉ", "x²", "½", "™", "…", "—", "«quote»", "\u00a0nbsp"]
PUNCT = [".", ",", "!", "?", ";", ":", "'s", "(", ")", "-", "\"", "123", "2024", "3.14"]


def sentence(rng, unicode_rate):
    out = []
    for _ in range(rng.randint(1, 30)):
        r = rng.random()
        if r < unicode_rate:
            out.append(rng.choice(UNICODE))
        elif r < unicode_rate + 0.08:
            out.append(rng.choice(PUNCT))
        else:
            w = rng.choice(WORDS)
            out.append(w.capitalize() if rng.random() < 0.1 else w)
    sep = "  " if rng.random() < 0.05 else " "
    text = sep.join(out)
    if rng.random() < 0.05:
        text = " " + text + "\t"
    return text


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = random.Random(18)
    train = [sentence(rng, 0.05) for _ in range(20000)]
    check = [sentence(rng, 0.15) for _ in range(300)]
    with open(os.path.join(out, "corpus.txt"), "w", encoding="utf-8") as f:
        for line in check:
            f.write(line + "\n")

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.post_processor = processors.ByteLevel(trim_offsets=False)
    bpe.train_from_iterator(train, trainers.BpeTrainer(
        vocab_size=1000, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    bpe.save(os.path.join(out, "bpe.json"))

    wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    wp.normalizer = normalizers.BertNormalizer(lowercase=True)
    wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    wp.decoder = decoders.WordPiece()
    wp.train_from_iterator(train, trainers.WordPieceTrainer(
        vocab_size=800, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    cls, sep = wp.token_to_id("[CLS]"), wp.token_to_id("[SEP]")
    wp.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    wp.save(os.path.join(out, "wordpiece.json"))

    for name, kind, extra in (("unigram", "unigram", dict(normalization_rule_name="nmt_nfkc")),
                              ("sp-bpe", "bpe", dict(normalization_rule_name="identity", byte_fallback=True))):
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(train), model_prefix=os.path.join(out, name), model_type=kind,
            vocab_size=400, character_coverage=0.995, bos_id=1, eos_id=2, unk_id=0, pad_id=-1,
            minloglevel=2, **extra)
        os.remove(os.path.join(out, name + ".vocab"))

    for name in ("bpe", "wordpiece"):
        tok = Tokenizer.from_file(os.path.join(out, name + ".json"))
        write_ids(out, name, [tok.encode(t, add_special_tokens=False).ids for t in check])
    for name in ("unigram", "sp-bpe"):
        sp = spm.SentencePieceProcessor(model_file=os.path.join(out, name + ".model"))
        write_ids(out, name, [sp.encode(t) for t in check])


def write_ids(out, name, rows):
    with open(os.path.join(out, name + ".ids"), "w") as f:
        for ids in rows:
            f.write(" ".join(map(str, ids)) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
