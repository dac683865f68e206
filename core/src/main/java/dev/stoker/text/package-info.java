/**
 * Text for language models: the {@link dev.stoker.text.Tokenizer} contract that turns text into
 * token ids inside the workers, and its special tokens. Implementations live in modules of their
 * own (module {@code text-tokenizers}: Hugging Face {@code tokenizer.json} and SentencePiece
 * {@code .model} files), so core stays on the JDK alone.
 *
 * <pre>{@code
 * try (Tokenizer tok = Tokenizers.open(Path.of("tokenizer.json"))) {
 *     int[] ids = tok.encode("Hello, world");
 *     List<int[]> many = tok.encodeBatch(texts);     // one call per worker batch
 *     int eos = tok.specialTokens().eos().orElseThrow();
 * }
 * }</pre>
 */
package dev.stoker.text;
