/**
 * Stoker's file formats that need nothing but the JDK (zstd JSONL also needs zstd-jni, optional): image folders, JSON lines, Megatron's
 * indexed datasets, NumPy files, token files, WebDataset tar shards (local and over HTTP), and the
 * memory-mapped files they share with the other format modules.
 */
module dev.stoker.formats {
    requires transitive dev.stoker.core;
    // remote shards (WebDataset over HTTP); RemoteSettings takes an HttpClient
    requires transitive java.net.http;
    // zstd JSONL, only where the user's build has zstd-jni (ZstdLines); named by its Automatic-Module-Name
    requires static com.github.luben.zstd_jni;

    exports dev.stoker.formats.folder;
    exports dev.stoker.formats.jsonl;
    exports dev.stoker.formats.megatron;
    exports dev.stoker.formats.mmap;
    exports dev.stoker.formats.npy;
    exports dev.stoker.formats.remote;
    exports dev.stoker.formats.tar;
    exports dev.stoker.formats.tokens;
}
