package dev.stoker.cli;

import java.net.URI;

/**
 * The file name a remote shard goes by: the last segment of a URL's path
 * ({@code https://host/a/train-000001.tar} is {@code train-000001.tar}), or, for a {@code pipe:}
 * command, of the last word in it that names a {@code .tar} file
 * ({@code pipe:aws s3 cp s3://b/train-000001.tar -} is {@code train-000001.tar}).
 */
final class RemoteNames {
    private RemoteNames() {
    }

    /** @throws IllegalArgumentException when the location names no file */
    static String fileName(String location) {
        String path;
        if (location.startsWith("pipe:")) {
            path = null;
            for (String word : location.substring(5).trim().split("\\s+")) {
                String w = word.replaceAll("^['\"]|['\"]$", "");
                if (w.contains(".tar")) {
                    path = w;
                }
            }
            if (path == null) {
                throw new IllegalArgumentException(location + ": no word of the command names a .tar file, so its"
                        + " index has no name to take");
            }
        } else {
            path = URI.create(location).getPath();
        }
        String name = path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
        if (name.isEmpty()) {
            throw new IllegalArgumentException(location + " names no file (it ends in '/')");
        }
        return name;
    }
}
