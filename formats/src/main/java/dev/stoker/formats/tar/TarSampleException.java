package dev.stoker.formats.tar;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import java.util.Objects;

/**
 * A member of a tar sample could not be written into its field of the batch: it is missing, it is
 * not the {@code .npy} array, the integer text or the raw bytes the field declares, or its dtype,
 * shape or size differ from the field's. The message names the shard, the sample's key, the
 * member's extension, the field, and what was wrong, so that a person can find the member with
 * {@code tar xf SHARD KEY.EXT}.
 *
 * <pre>
 * shard data/shard-000003.tar, sample "000042", member .npy (field x): the array is &lt;f8 (f64) of shape [80, 3000], but the field is f32 of shape [80, 3000]
 * </pre>
 *
 * <p>It is a {@link DataFormatException} (at the sample's key) thrown from {@link TarTensorStream#fill}, so a loader built
 * with {@code onBadSample(SamplePolicy.SKIP)} leaves the sample out and counts it.
 */
public final class TarSampleException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    private final String url;
    private final String key;
    private final String extension;

    /**
     * @param sample    the sample whose member was wrong
     * @param extension the member's extension
     * @param field     the field it was to be written into
     * @param what      what was wrong, for a person
     */
    public TarSampleException(TarSample sample, String extension, String field, String what) {
        this(sample, extension, field, what, null);
    }

    public TarSampleException(TarSample sample, String extension, String field, String what, Throwable cause) {
        super("shard " + sample.url() + ", sample \"" + sample.key() + "\", member ." + extension + " (field "
                + field + "): " + what, sample.url(), DataPosition.named("sample", sample.key()),
                "member ." + extension + " (field " + field + "): " + what, cause);
        this.url = sample.url();
        this.key = sample.key();
        this.extension = Objects.requireNonNull(extension, "extension");
    }

    /** The shard the sample came from, WebDataset's {@code __url__}. */
    public String url() {
        return url;
    }

    /** The sample's key, WebDataset's {@code __key__}. */
    public String key() {
        return key;
    }

    /** The extension of the member that was wrong (or missing). */
    public String extension() {
        return extension;
    }
}
