package dev.stoker.formats.folder;

import dev.stoker.contract.MapDatasetContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

class ImageFolderFilesContractTest extends MapDatasetContract<LabeledFile> {
    @TempDir
    Path root;

    @Override
    protected Opened<LabeledFile> open() throws Exception {
        for (int c = 0; c < 3; c++) {
            Files.createDirectories(root.resolve("class_" + c));
            for (int i = 0; i < 3; i++) {
                Files.write(root.resolve("class_" + c + "/" + i + ".jpg"), new byte[] {(byte) c, (byte) i, 7});
            }
        }
        return new Opened<>(ImageFolder.scan(root).fileDataset(), () -> {});
    }

    @Override
    protected Object content(LabeledFile f) {
        return List.of(f.path(), f.label());
    }

    @Override
    protected boolean closeInvalidatesReads() {
        return false; // nothing is opened
    }
}
