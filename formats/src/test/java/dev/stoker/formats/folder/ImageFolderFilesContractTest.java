package dev.stoker.formats.folder;

import dev.stoker.contract.MapDatasetContract;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

class ImageFolderFilesContractTest extends MapDatasetContract<LabeledFile> {
    @TempDir
    Path root;

    @Override
    protected Opened<LabeledFile> open() throws Exception {
        return new Opened<>(ImageFolderContractTest.folder(root).fileDataset(), () -> {});
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
