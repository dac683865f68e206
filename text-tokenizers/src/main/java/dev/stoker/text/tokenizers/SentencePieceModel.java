package dev.stoker.text.tokenizers;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a SentencePiece {@code .model} file holds ({@code sentencepiece_model.proto}'s
 * {@code ModelProto}): the pieces with their scores and types, the algorithm, the special ids and
 * the normalizer's settings. Read by {@link ProtoReader}; fields this reader does not use are
 * skipped, as protobuf does.
 */
record SentencePieceModel(Path file, String[] pieces, byte[][] pieceBytes, float[] scores, byte[] types,
                          int modelType, boolean byteFallback, boolean whitespaceAsSuffix,
                          int unkId, int bosId, int eosId, int padId,
                          String normalizerName, byte[] charsMap, boolean addDummyPrefix,
                          boolean removeExtraWhitespaces, boolean escapeWhitespaces) {

    static final int UNIGRAM = 1;
    static final int BPE = 2;
    static final int WORD = 3;
    static final int CHAR = 4;

    static final byte NORMAL = 1;
    static final byte UNKNOWN = 2;
    static final byte CONTROL = 3;
    static final byte USER_DEFINED = 4;
    static final byte UNUSED = 5;
    static final byte BYTE = 6;

    /** Larger than any real model (Llama's is 0.5 MB, Gemma's 4 MB); a bigger file is refused before it is read. */
    static final long MAX_BYTES = 256L << 20;

    static SentencePieceModel read(Path file) throws IOException {
        DataFiles.requireRegularFile(file); // a FIFO would block the read, a device read without end
        long size = Files.size(file);
        if (size > MAX_BYTES) {
            throw new IOException(file + ": " + size + " bytes, more than a SentencePiece model's limit of " + MAX_BYTES);
        }
        byte[] data = Files.readAllBytes(file);
        try {
            return parse(file, data);
        } catch (IllegalArgumentException e) {
            throw new IOException("not a SentencePiece model: " + e.getMessage(), e);
        }
    }

    private static SentencePieceModel parse(Path file, byte[] data) {
        ProtoReader in = new ProtoReader(data, 0, data.length, file.toString());
        List<String> pieces = new ArrayList<>();
        List<Float> scores = new ArrayList<>();
        List<Byte> types = new ArrayList<>();
        int modelType = UNIGRAM;
        boolean byteFallback = false;
        boolean suffix = false;
        int unk = 0;
        int bos = 1;
        int eos = 2;
        int pad = -1;
        String normalizer = "";
        byte[] charsMap = new byte[0];
        boolean dummy = true;
        boolean extra = true;
        boolean escape = true;
        boolean sawNormalizer = false;
        while (in.more()) {
            int key = in.key();
            int field = key >>> 3;
            int wire = key & 7;
            if (field == 1 && wire == ProtoReader.BYTES) {
                ProtoReader p = in.message("piece " + pieces.size());
                String piece = null;
                float score = 0;
                byte type = NORMAL;
                while (p.more()) {
                    int k = p.key();
                    switch (k) {
                        case 1 << 3 | ProtoReader.BYTES -> piece = p.string();
                        case 2 << 3 | ProtoReader.FIXED32 -> score = Float.intBitsToFloat(p.fixed32());
                        case 3 << 3 | ProtoReader.VARINT -> {
                            long t = p.varint();
                            if (t < NORMAL || t > BYTE) {
                                throw p.error("piece " + pieces.size() + " has the type " + t);
                            }
                            type = (byte) t;
                        }
                        default -> p.skip(k & 7);
                    }
                }
                if (piece == null) {
                    throw in.error("piece " + pieces.size() + " has no text");
                }
                pieces.add(piece);
                scores.add(score);
                types.add(type);
            } else if (field == 2 && wire == ProtoReader.BYTES) {
                ProtoReader t = in.message("trainer_spec");
                while (t.more()) {
                    int k = t.key();
                    if ((k & 7) != ProtoReader.VARINT) {
                        t.skip(k & 7);
                        continue;
                    }
                    long v = t.varint();
                    switch (k >>> 3) {
                        case 3 -> modelType = (int) v;
                        case 24 -> suffix = v != 0;
                        case 35 -> byteFallback = v != 0;
                        case 40 -> unk = (int) v;
                        case 41 -> bos = (int) v;
                        case 42 -> eos = (int) v;
                        case 43 -> pad = (int) v;
                        default -> { }
                    }
                }
            } else if (field == 3 && wire == ProtoReader.BYTES) {
                sawNormalizer = true;
                ProtoReader n = in.message("normalizer_spec");
                while (n.more()) {
                    int k = n.key();
                    switch (k) {
                        case 1 << 3 | ProtoReader.BYTES -> normalizer = n.string();
                        case 2 << 3 | ProtoReader.BYTES -> charsMap = n.bytes();
                        case 3 << 3 | ProtoReader.VARINT -> dummy = n.varint() != 0;
                        case 4 << 3 | ProtoReader.VARINT -> extra = n.varint() != 0;
                        case 5 << 3 | ProtoReader.VARINT -> escape = n.varint() != 0;
                        default -> n.skip(k & 7);
                    }
                }
            } else {
                in.skip(wire);
            }
        }
        if (pieces.isEmpty()) {
            throw new IllegalArgumentException(file + ": no pieces");
        }
        if (!sawNormalizer) {
            throw new IllegalArgumentException(file + ": no normalizer_spec");
        }
        if (modelType < UNIGRAM || modelType > CHAR) {
            throw new IllegalArgumentException(file + ": model type " + modelType
                    + ", none of SentencePiece's (1 UNIGRAM, 2 BPE, 3 WORD, 4 CHAR)");
        }
        int n = pieces.size();
        String[] p = pieces.toArray(String[]::new);
        byte[][] b = new byte[n][];
        float[] s = new float[n];
        byte[] t = new byte[n];
        int unkPiece = -1;
        for (int i = 0; i < n; i++) {
            b[i] = p[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            s[i] = scores.get(i);
            t[i] = types.get(i);
            if (t[i] == UNKNOWN) {
                unkPiece = i;
            }
        }
        if (unkPiece < 0) {
            throw new IllegalArgumentException(file + ": no piece of type UNKNOWN");
        }
        return new SentencePieceModel(file, p, b, s, t, modelType, byteFallback, suffix, unkPiece, checkId(file, bos, n),
                checkId(file, eos, n), checkId(file, pad, n), normalizer, charsMap, dummy, extra, escape);
    }

    private static int checkId(Path file, int id, int n) {
        if (id >= n) {
            throw new IllegalArgumentException(file + ": special id " + id + " outside the " + n + " pieces");
        }
        return id;
    }
}
