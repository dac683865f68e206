/**
 * Tokenizers for core's {@link dev.stoker.text.Tokenizer}: Hugging Face {@code tokenizer.json}
 * files through DJL's binding of Hugging Face's Rust library ({@link dev.stoker.text.tokenizers.HfTokenizer}),
 * and SentencePiece models read and run in Java ({@link dev.stoker.text.tokenizers.SentencePieceTokenizer}).
 * {@link dev.stoker.text.tokenizers.Tokenizers#open} picks one by the file.
 */
package dev.stoker.text.tokenizers;
