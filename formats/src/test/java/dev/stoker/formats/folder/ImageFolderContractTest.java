package dev.stoker.formats.folder;

import dev.stoker.contract.MapDatasetContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

class ImageFolderContractTest extends MapDatasetContract<ImageBytes> {
    @TempDir
    Path root;

    /** Three class folders of three small files each under {@code root}. */
    static ImageFolder folder(Path root) throws Exception {
        for (int c = 0; c < 3; c++) {
            Files.createDirectories(root.resolve("class_" + c));
            for (int i = 0; i < 3; i++) {
                Files.write(root.resolve("class_" + c + "/" + i + ".jpg"), new byte[] {(byte) c, (byte) i, 7});
            }
        }
        return ImageFolder.scan(root);
    }

    @Override
    protected Opened<ImageBytes> open() throws Exception {
        return new Opened<>(folder(root).dataset(), () -> {});
    }

    @Override
    protected Object content(ImageBytes s) {
        return List.of(s.path(), HexFormat.of().formatHex(s.bytes()), s.label());
    }

    @Override
    protected boolean closeInvalidatesReads() {
        return false; // files are opened per read: nothing to close
    }
}
