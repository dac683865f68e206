package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The structural check accepts every valid environment (Python's and lmdbjava's) and refuses each
 * kind of damage with a message naming the path, the page and the byte, before liblmdb sees it.
 */
class LmdbVerifierTest {
    static final Path TREE = Path.of("src/test/resources/lmdb/tree");
    private static final int PAGE = 4096;

    @TempDir
    Path dir;

    @Test
    void acceptsTheEnvironmentsPythonWrote() {
        LmdbVerifier.Summary small = verify(LmdbDatasetTest.SMALL);
        assertThat(small).isEqualTo(new LmdbVerifier.Summary(PAGE, 2, 1, LmdbDatasetTest.N + 2, 1, 0));
        assertThat(verify(LmdbDatasetTest.NOLEN).entries()).isEqualTo(1);
        // tree: make_lmdb_tree_fixture.py, whose stat() says depth 3, 3 branch + 13 leaf pages,
        // 8 overflow pages, 62 entries
        assertThat(verify(TREE)).isEqualTo(new LmdbVerifier.Summary(PAGE, 30, 3, 62, 16, 8));
    }

    @Test
    void readsEveryValueOfTheTreeFixture() {
        try (LmdbEnvironment env = LmdbEnvironment.open(TREE)) {
            for (int i = 0; i < 64; i++) {
                byte[] key = treeKey(i);
                byte[] value = env.get(key, "#" + i);
                if (i == 10 || i == 11) {
                    assertThat(value).isNull();
                    continue;
                }
                byte[] expected = new byte[i % 16 == 0 ? 5000 : 20 + i];
                for (int j = 0; j < expected.length; j++) {
                    expected[j] = (byte) ((i + j) % 256);
                }
                assertThat(value).as("value %d", i).isEqualTo(expected);
            }
            assertThat(env.entries()).isEqualTo(62);
        }
    }

    @Test
    void acceptsW8EnvironmentsLmdbjavaWrote() throws IOException {
        // Small values in the leaves, big ones (over ~2 KB) on overflow pages; 3000 entries make a
        // two-level tree.
        Path env = LmdbTestEnvironments.writeW8(dir.resolve("w8"), 3000, 40, 110, 2500, 9000, 1);
        LmdbVerifier.Summary s = verify(env);
        assertThat(s.entries()).isEqualTo(3002);
        assertThat(s.depth()).isGreaterThanOrEqualTo(2);
        assertThat(s.overflowPages()).isPositive();
        try (LmdbDataset ds = LmdbDataset.open(env)) {
            assertThat(ds.size()).isEqualTo(3000);
            for (int i : new int[] {0, 1, 2, 3, 4, 1234, 2999}) {
                byte[] v = ds.get(i).value();
                assertThat(v).hasSize(new int[] {40, 110, 2500, 9000, 1}[i % 5]);
                assertThat(v[0]).isEqualTo((byte) (i % 251));
                assertThat(ds.label(i)).isEqualTo(i % 10);
            }
        }
        assertThat(verify(LmdbTestEnvironments.writeW8(dir.resolve("empty"), 0, 1)).entries()).isEqualTo(2);
    }

    @Test
    void acceptsAMainDatabaseHoldingNamedDatabases() throws IOException {
        // A named database is a node of the main one whose value is its 48-byte record: Stoker
        // never opens it, and reading that key gives the record's bytes.
        Path env = LmdbTestEnvironments.writeWithNamedDatabase(dir.resolve("named"));
        try (LmdbEnvironment e = LmdbEnvironment.open(env)) {
            assertThat(e.get("a")).containsExactly(1, 2, 3);
            assertThat(e.get("sub")).hasSize(48);
            assertThat(e.entries()).isEqualTo(2);
        }
    }

    @Test
    void refusesSortedDuplicates() throws IOException {
        Path env = LmdbTestEnvironments.writeDupSort(dir.resolve("dups"));
        assertThatThrownBy(() -> LmdbEnvironment.open(env))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString())
                .hasMessageContaining("not supported");
    }

    @Test
    void refusesDamagedMetaPages() throws IOException {
        byte[] tree = tree();
        int meta = chosenMeta(tree);
        assertRefused(with(tree, b -> b.putInt(16, 0x12345678)), "page 0", "magic");
        assertRefused(with(tree, b -> b.putInt(meta + 40, 0)), "page size 0");
        assertRefused(with(tree, b -> b.putInt(PAGE + 20, 2)), "page 1, byte " + (PAGE + 20), "version 2");
        assertRefused(with(tree, b -> b.putLong(meta + 136, 31)), "page " + meta / PAGE, "last page is 31");
        assertRefused(with(tree, b -> b.putLong(meta + 128, 1)), "root page 1");
        assertRefused(with(tree, b -> b.putLong(meta + 128, 31)), "root page 31");
        assertRefused(with(tree, b -> b.putShort(meta + 94, (short) 2)), "a branch page at level 2 of a tree of depth 2");
        assertRefused(with(tree, b -> b.putLong(meta + 120, 63)), "says 63 entries but its tree holds 62");
        // The overflow count may exceed what the values need (runs reused in place), never fall short
        // of it nor pass the file's pages outside the tree (31 pages, 16 in the tree, 2 metas).
        assertRefused(with(tree, b -> b.putLong(meta + 112, 7)), "says 7 overflow pages", "need at least 8");
        assertRefused(with(tree, b -> b.putLong(meta + 112, 14)), "says 14 overflow pages", "has 13 pages outside");
        assertRefused(with(tree, b -> b.putLong(meta + 112, -1)), "says 18446744073709551615 overflow pages");
        assertThat(LmdbVerifier.verify(dir, write(with(tree, b -> b.putLong(meta + 112, 13))).resolve("data.mdb"))
                .overflowPages()).isEqualTo(13);
        assertRefused(Arrays.copyOf(tree, tree.length - PAGE), "last page is 30", "holds 30 pages");
        assertRefused(Arrays.copyOf(tree, 100), "too few for a meta page");
    }

    @Test
    void refusesDamagedPageHeadersAndNodes() throws IOException {
        byte[] tree = tree();
        int root = (int) le(tree).getLong(chosenMeta(tree) + 128) * PAGE;
        int child = (int) nodeChild(tree, root, 0) * PAGE;
        int leaf = (int) nodeChild(tree, child, 0) * PAGE;
        int rootPage = root / PAGE;
        assertRefused(with(tree, b -> b.putLong(root, 99)), "page " + rootPage + ", byte " + root, "header says page 99");
        assertRefused(with(tree, b -> b.putShort(root + 10, (short) 0x04)), "flags 0x4");
        assertRefused(with(tree, b -> b.putShort(root + 12, (short) 15)), "free space from 15");
        assertRefused(with(tree, b -> b.putShort(root + 14, (short) (PAGE + 2))), "free space");
        assertRefused(with(tree, b -> b.putShort(root + 16, (short) 8)), "node 0 is at page offset 8");
        assertRefused(with(tree, b -> b.putShort(root + 16, (short) (PAGE - 4))), "outside the nodes' area");
        int node = root + (le(tree).getShort(root + 16) & 0xFFFF);
        assertRefused(with(tree, b -> b.putShort(node + 6, (short) 0x7FFF)), "key runs past the end of the page");
        assertRefused(with(tree, b -> b.putShort(node, (short) 40)), "points to page 40");
        assertRefused(with(tree, b -> b.putShort(node, (short) rootPage)), "reached twice");
        assertRefused(with(tree, b -> b.putShort(node, (short) (leaf / PAGE))), "a leaf page at level 2 of a tree of depth 3");
        int leafNode = leaf + (le(tree).getShort(leaf + 18) & 0xFFFF); // key 000001: a small value
        assertRefused(with(tree, b -> b.putShort(leafNode + 2, (short) 1)), "value runs past the end of the page");
        assertRefused(with(tree, b -> b.putShort(leafNode + 4, (short) 0x04)), "sorted duplicates");
        assertRefused(with(tree, b -> b.putShort(leafNode + 4, (short) 0x10)), "unknown flags 0x10");
        assertRefused(with(tree, b -> {
            short first = b.getShort(leaf + 16);
            b.putShort(leaf + 16, b.getShort(leaf + 18));
            b.putShort(leaf + 18, first);
        }), "page " + leaf / PAGE, "node 1's key is out of order");
    }

    @Test
    void refusesOverflowValuesOutsideTheFile() throws IOException {
        byte[] tree = tree();
        ByteBuffer b = le(tree);
        int big = -1;
        for (int p = 2; p <= 30 && big < 0; p++) {
            if (b.getLong(p * PAGE) == p && b.getShort(p * PAGE + 10) == 0x02) {
                for (int i = 0; i < (b.getShort(p * PAGE + 12) - 16) / 2; i++) {
                    int node = p * PAGE + (b.getShort(p * PAGE + 16 + 2 * i) & 0xFFFF);
                    if ((b.getShort(node + 4) & 0x01) != 0) {
                        big = node;
                    }
                }
            }
        }
        assertThat(big).as("a node with an overflow value").isPositive();
        int at = big + 8 + (b.getShort(big + 6) & 0xFFFF);
        assertRefused(with(tree, x -> x.putLong(at, 30)), "on pages 30 and after (2 pages)");
        assertRefused(with(tree, x -> x.putLong(at, -1)), "not within pages 2 to the last page 30");
        int node = big;
        assertRefused(with(tree, x -> x.putShort(node + 2, (short) 2)), "value is on pages");
        // Over 2 GiB (0x9000 << 16 + 5000) is valid LMDB but more than a Java array holds: unsupported, not corrupt.
        Path huge = write(with(tree, x -> x.putShort(node + 2, (short) 0x9000)));
        assertThatThrownBy(() -> LmdbEnvironment.open(huge))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(huge.toString())
                .hasMessageContaining("holds a value of 2415924104 bytes")
                .hasMessageContaining("up to 2 GiB")
                .hasMessageNotContaining("corrupt");
    }

    @Test
    void trustedOpenSkipsTheCheck() throws IOException {
        byte[] tree = tree();
        byte[] wrongCount = with(tree, b -> b.putLong(chosenMeta(tree) + 120, 63));
        Path env = write(wrongCount);
        assertThatThrownBy(() -> LmdbEnvironment.open(env)).isInstanceOf(LmdbException.class);
        try (LmdbEnvironment trusted = LmdbEnvironment.openTrusted(env)) {
            assertThat(trusted.entries()).isEqualTo(63); // the meta's word, unchecked
        }
    }

    private static LmdbVerifier.Summary verify(Path env) {
        return LmdbVerifier.verify(env, env.resolve("data.mdb"));
    }

    private void assertRefused(byte[] bytes, String... fragments) throws IOException {
        Path env = write(bytes);
        assertThatThrownBy(() -> LmdbEnvironment.open(env))
                .isInstanceOf(LmdbException.class)
                .hasMessageContaining(env.toString())
                .hasMessageContainingAll(fragments);
    }

    private int written;

    private Path write(byte[] bytes) throws IOException {
        Path env = Files.createDirectories(dir.resolve("env" + written++));
        Files.write(env.resolve("data.mdb"), bytes);
        return env;
    }

    private static byte[] tree() throws IOException {
        return Files.readAllBytes(TREE.resolve("data.mdb"));
    }

    static byte[] treeKey(int i) {
        byte[] key = new byte[500];
        Arrays.fill(key, (byte) 'k');
        byte[] digits = String.format("%06d", i).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(digits, 0, key, 0, digits.length);
        return key;
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The byte offset of the meta page liblmdb reads: the one with the greater transaction id. */
    private static int chosenMeta(byte[] bytes) {
        ByteBuffer b = le(bytes);
        return Long.compareUnsigned(b.getLong(PAGE + 144), b.getLong(144)) > 0 ? PAGE : 0;
    }

    private static long nodeChild(byte[] bytes, int page, int i) {
        ByteBuffer b = le(bytes);
        int node = page + (b.getShort(page + 16 + 2 * i) & 0xFFFF);
        return (b.getShort(node) & 0xFFFFL) | (b.getShort(node + 2) & 0xFFFFL) << 16;
    }

    private interface Edit {
        void apply(ByteBuffer b);
    }

    private static byte[] with(byte[] bytes, Edit edit) {
        byte[] copy = bytes.clone();
        edit.apply(le(copy));
        return copy;
    }
}
