package dev.stoker.vision;

import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.augment.Interpolation;
import dev.stoker.vision.augment.RandomErasing;
import dev.stoker.vision.augment.TrivialAugmentWide;
import dev.stoker.vision.decode.DecodeOptions;
import dev.stoker.vision.decode.DecodeSession;
import dev.stoker.vision.decode.DecodedImage;
import dev.stoker.vision.decode.DecodedRegion;
import dev.stoker.vision.decode.ImageDecoder;
import dev.stoker.vision.decode.ImageHeader;
import dev.stoker.vision.decode.ScalingFactor;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.CropBox;
import dev.stoker.vision.transform.Geometry;
import dev.stoker.vision.transform.ImageTransform;
import dev.stoker.vision.transform.Normalize;
import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.RandomCrop;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resampler;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Scratch;
import dev.stoker.vision.transform.SizeEffect;
import dev.stoker.vision.transform.SourcePixels;
import dev.stoker.vision.transform.TensorOp;
import dev.stoker.vision.transform.Tile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Encoded image in, normalized CHW tensor out, written once into the slot it belongs in (the
 * sample's row of the batch tensor): decode, torchvision-style transforms, {@code ToTensor} and
 * {@code Normalize} fused into one pass. The transforms only plan which source pixels land where
 * ({@link Geometry}); the header is read first so that the decoder can scale in the DCT domain
 * when the output is much smaller than the region kept (as PIL's {@code draft}), then the kept
 * region alone is resampled.
 *
 * <p>Three kinds of step, in this order: geometric steps ({@link ImageTransform}) compose into
 * the one resample; pixel ops ({@link PixelOp}: colour, blur, ...) then change the 8-bit output
 * tile in place; tensor ops ({@link TensorOp}: {@code RandomErasing}) change the normalized slot.
 * Without pixel ops the resample writes straight into the slot. Every draw comes from the
 * sample's {@link SampleRandom}, geometric steps first, in the order added.
 *
 * <pre>{@code
 * try (ImagePipeline train = ImagePipeline.train(224)) {      // RandomResizedCrop, flip, ImageNet normalize
 *     Tensor batch = ...;                                      // (64, 3, 224, 224) f32, pooled
 *     train.apply(jpegBytes, "class_03/000612.jpg", batch.select(j), SampleRandom.of(seed, epoch, index));
 * }
 * ImagePipeline custom = ImagePipeline.builder()
 *         .add(Resize.shorterSide(160)).add(new CenterCrop(128))
 *         .normalize(Normalize.NONE).dctScaling(false).build();
 * ImagePipeline recipe = ImagePipeline.builder()                // what trainRecipe(224) holds
 *         .add(new RandomResizedCrop(224)).add(new RandomHorizontalFlip())
 *         .add(new TrivialAugmentWide())                        // pixel op
 *         .add(new RandomErasing(0.1))                          // tensor op, after Normalize
 *         .build();
 * }</pre>
 *
 * <p>Thread-safe: workers share one pipeline; each call borrows a decode session and working
 * arrays and gives them back. Close the pipeline to free them (and its decoder, if it made it).
 */
public final class ImagePipeline implements AutoCloseable {
    private final List<ImageTransform> transforms;
    private final List<PixelOp> pixelOps;
    private final List<TensorOp> tensorOps;
    private final Normalize normalize;
    private final boolean dctScaling;
    private final boolean cropDecode;
    private final ImageDecoder decoder;
    private final boolean ownsDecoder;
    private final boolean random;
    private final ConcurrentLinkedQueue<Scratch> scratches = new ConcurrentLinkedQueue<>();

    private ImagePipeline(Builder b) {
        this.transforms = List.copyOf(b.transforms);
        this.pixelOps = List.copyOf(b.pixelOps);
        this.tensorOps = List.copyOf(b.tensorOps);
        this.normalize = b.normalize;
        this.dctScaling = b.dctScaling;
        this.cropDecode = b.cropDecode;
        this.ownsDecoder = b.decoder == null;
        this.decoder = b.decoder != null ? b.decoder : ImageDecoder.create(b.decodeOptions);
        // a new JVM's resampling code compiles while the caller builds its dataset (as the decoder
        // loads libjpeg-turbo), not during the first batch
        Resampler.prepareInBackground();
        this.random = transforms.stream().anyMatch(ImageTransform::isRandom)
                || pixelOps.stream().anyMatch(PixelOp::isRandom) || tensorOps.stream().anyMatch(TensorOp::isRandom);
    }

    /**
     * torchvision's ImageNet training transform: {@code RandomResizedCrop(size)},
     * {@code RandomHorizontalFlip()}, {@code ToTensor()}, {@code Normalize(IMAGENET)}; with DCT
     * scaling.
     */
    public static ImagePipeline train(int size) {
        return builder().add(new RandomResizedCrop(size)).add(new RandomHorizontalFlip()).build();
    }

    /**
     * torchvision's reference ImageNet training recipe (its {@code --auto-augment ta_wide
     * --random-erase 0.1}): {@code RandomResizedCrop(size)}, {@code RandomHorizontalFlip()},
     * {@code TrivialAugmentWide(interpolation=BILINEAR)}, {@code ToTensor()}, {@code Normalize(IMAGENET)},
     * {@code RandomErasing(0.1)}; with DCT scaling. Pair it with MixUp and CutMix on the batch,
     * as the recipe does ({@code --mixup-alpha 0.2 --cutmix-alpha 1.0}):
     *
     * <pre>{@code
     * BatchOp mix = RandomChoice.of(new MixUp(0.2), new CutMix(1.0));
     * }</pre>
     */
    public static ImagePipeline trainRecipe(int size) {
        return builder().add(new RandomResizedCrop(size)).add(new RandomHorizontalFlip())
                .add(new TrivialAugmentWide(Interpolation.BILINEAR)).add(new RandomErasing(0.1)).build();
    }

    /**
     * torchvision's ImageNet evaluation transform: {@code Resize(size / 0.875)} (256 for 224),
     * {@code CenterCrop(size)}, {@code ToTensor()}, {@code Normalize(IMAGENET)}; with DCT scaling.
     */
    public static ImagePipeline eval(int size) {
        return builder().add(Resize.shorterSide((int) Math.round(size / 0.875))).add(new CenterCrop(size)).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Decodes {@code bytes} and writes the transformed image into {@code slot}; see {@link #apply(MemorySegment, String, Tensor, SampleRandom)}. */
    public void apply(byte[] bytes, String source, Tensor slot, SampleRandom random) {
        apply(MemorySegment.ofArray(bytes), source, slot, random);
    }

    /**
     * Decodes the image in {@code bytes}, applies the transforms with draws from {@code random},
     * and writes the result into {@code slot}, a {@code (3, H, W)} tensor (f32, f16 or bf16
     * normalized; u8 as pixels). Nothing outside the slot is written.
     *
     * @param source the file path or sample key, named in errors
     * @param random this sample's generator; may be null when no transform is random
     * @throws dev.stoker.vision.decode.ImageDecodeException when the image cannot be decoded
     * @throws IllegalArgumentException when the slot's shape is not the transforms' output
     */
    public void apply(MemorySegment bytes, String source, Tensor slot, SampleRandom random) {
        Objects.requireNonNull(slot, "slot");
        checkRandom(random);
        try (DecodeSession session = decoder.session()) {
            apply(session, session.open(bytes, source), source, slot, random);
        }
    }

    /**
     * Reads {@code file}, decodes it and writes the transformed image into {@code slot}, as
     * {@link #apply(MemorySegment, String, Tensor, SampleRandom)} does with its bytes. The file is
     * read into the decoder's own off-heap buffer, which every image reuses (torchvision's
     * {@code decode_image(path)}), so a steady stream of files allocates nothing for their bytes.
     *
     * @throws java.io.UncheckedIOException when the file cannot be read, naming it
     * @throws dev.stoker.vision.decode.ImageDecodeException when the image cannot be decoded
     * @throws IllegalArgumentException when the slot's shape is not the transforms' output
     */
    public void apply(Path file, Tensor slot, SampleRandom random) {
        Objects.requireNonNull(slot, "slot");
        checkRandom(random);
        try (DecodeSession session = decoder.session()) {
            apply(session, session.open(file), file.toString(), slot, random);
        }
    }

    private void checkRandom(SampleRandom random) {
        if (random == null && this.random) {
            throw new IllegalArgumentException("this pipeline has random transforms: give it the sample's SampleRandom");
        }
    }

    private void apply(DecodeSession session, ImageHeader header, String source, Tensor slot, SampleRandom random) {
        Geometry g = plan(header.width(), header.height(), random);
        if (slot.shape().rank() != 3 || slot.shape().dim(0) != 3 || slot.shape().dim(1) != g.height()
                || slot.shape().dim(2) != g.width()) {
            throw new IllegalArgumentException(source + ": the transforms make a " + g.width() + "x" + g.height()
                    + " image, but the slot is " + slot.shape() + " (3, H, W expected)");
        }
        render(session, g, slot, random);
    }

    /**
     * Decodes and resamples into {@code slot}, then runs the pixel and tensor ops; timing decode
     * and the rest for the loader's profile ({@link Stages}).
     */
    private void render(DecodeSession session, Geometry g, Tensor slot, SampleRandom random) {
        long t = Stages.start();
        SourcePixels source;
        if (cropDecode) {
            CropBox need = g.sourceRegion();
            DecodedRegion region = session.decodeRegion(scaleFor(g), need.left(), need.top(), need.width(), need.height());
            DecodedImage image = region.image();
            source = new SourcePixels(image.pixels(), image.width(), image.height(), region.left(), region.top(),
                    region.fullWidth(), region.fullHeight());
        } else {
            DecodedImage image = session.decode(scaleFor(g));
            source = SourcePixels.whole(image.pixels(), image.width(), image.height());
        }
        t = Stages.end(Stage.DECODE, t);
        Scratch scratch = scratches.poll();
        if (scratch == null) {
            scratch = new Scratch();
        }
        try {
            if (pixelOps.isEmpty()) {
                Resampler.render(source, g, normalize, slot, scratch);
            } else {
                Tile tile = scratch.tile();
                Resampler.render(source, g, tile, scratch);
                for (PixelOp op : pixelOps) {
                    op.apply(tile, random);
                }
                Resampler.write(tile, normalize, slot, scratch);
            }
            for (TensorOp op : tensorOps) {
                op.apply(slot, random);
            }
        } finally {
            scratches.offer(scratch);
            Stages.end(Stage.TRANSFORM, t);
        }
    }

    /** Decodes and transforms into a new tensor of {@code dtype} in {@code arena}: for one-off use and tests. */
    public Tensor apply(byte[] bytes, String source, SampleRandom random, DType dtype, Arena arena) {
        checkRandom(random);
        try (DecodeSession session = decoder.session()) {
            ImageHeader header = session.open(bytes, source);
            Geometry g = plan(header.width(), header.height(), random);
            Tensor out = Tensor.allocate(arena, dtype, Shape.of(3, g.height(), g.width()));
            render(session, g, out, random);
            return out;
        }
    }

    /** The geometry the transforms give an image of {@code width x height} for these draws. */
    public Geometry plan(int width, int height, SampleRandom random) {
        Geometry g = new Geometry(width, height);
        for (ImageTransform t : transforms) {
            t.apply(g, random);
        }
        return g;
    }

    /**
     * The output shape {@code (3, H, W)}, when the last geometric step that sets the size fixes it
     * ({@code RandomResizedCrop}, {@code CenterCrop}, {@code Resize} to an exact size): read from
     * each step's {@link ImageTransform#sizeEffect()}. Pixel and tensor ops keep the size.
     *
     * @throws IllegalStateException when the output size depends on the image
     */
    public Shape outputShape() {
        for (int i = transforms.size() - 1; i >= 0; i--) {
            SizeEffect e = transforms.get(i).sizeEffect();
            if (e.isFixed()) {
                return Shape.of(3, e.height(), e.width());
            }
            if (e.equals(SizeEffect.VARIES)) {
                throw new IllegalStateException("the output size of " + this + " depends on each image ("
                        + transforms.get(i) + "): end it with a crop or an exact resize");
            }
        }
        throw new IllegalStateException("the output size of " + this + " is each image's own size: add a crop or resize");
    }

    /** The decoder in use (to see which: {@link ImageDecoder#describe()}). */
    public ImageDecoder decoder() {
        return decoder;
    }

    /** The geometric steps, in order. */
    public List<ImageTransform> transforms() {
        return transforms;
    }

    /** The pixel ops, in order; empty on the plain path. */
    public List<PixelOp> pixelOps() {
        return pixelOps;
    }

    /** The ops on the normalized slot, in order. */
    public List<TensorOp> tensorOps() {
        return tensorOps;
    }

    public Normalize normalize() {
        return normalize;
    }

    private ScalingFactor scaleFor(Geometry g) {
        if (!dctScaling || !g.isResized()) {
            return ScalingFactor.ONE;
        }
        int outW = g.width();
        int outH = g.height();
        return ScalingFactor.choose(decoder.scalingFactors(), outW * g.scaleX(), outH * g.scaleY(), outW, outH);
    }

    /** Frees the working arrays, and the decoder when this pipeline made it. */
    @Override
    public void close() {
        scratches.clear();
        if (ownsDecoder) {
            decoder.close();
        }
    }

    @Override
    public String toString() {
        return "ImagePipeline" + transforms + (pixelOps.isEmpty() ? "" : " + " + pixelOps) + " + " + normalize
                + (tensorOps.isEmpty() ? "" : " + " + tensorOps) + (dctScaling ? ", DCT scaling" : "")
                + (cropDecode ? ", crop decode" : "");
    }

    /**
     * Settings of a pipeline; {@link #build()} makes it.
     *
     * <p>NOTE: {@code add} takes the three kinds of step by overloading; a lambda names its kind
     * with a cast ({@code add((PixelOp) (tile, random) -> ...)}).
     */
    @SuppressWarnings("overloads")
    public static final class Builder {
        private final List<ImageTransform> transforms = new ArrayList<>();
        private final List<PixelOp> pixelOps = new ArrayList<>();
        private final List<TensorOp> tensorOps = new ArrayList<>();
        private Normalize normalize = Normalize.IMAGENET;
        private boolean dctScaling = true;
        private boolean cropDecode = true;
        private ImageDecoder decoder;
        private DecodeOptions decodeOptions = DecodeOptions.defaults();

        private Builder() {}

        /**
         * Appends a geometric step; they apply in the order added, before every pixel and tensor op.
         *
         * @throws IllegalStateException when a pixel or tensor op was added before it: pixel ops
         *     run on the resampled output, so a geometric step after one would silently move; or
         *     when it resizes after a {@link RandomCrop} that may pad (the one resample cannot
         *     resize padding, and only some samples would fail)
         */
        public Builder add(ImageTransform transform) {
            Objects.requireNonNull(transform, "transform");
            if (!pixelOps.isEmpty() || !tensorOps.isEmpty()) {
                throw new IllegalStateException("add " + transform + " before the pixel and tensor ops: geometric steps"
                        + " compose into one resample, which runs before them");
            }
            if ((transform instanceof Resize || transform instanceof RandomResizedCrop) && transforms.stream()
                    .anyMatch(t -> t instanceof RandomCrop c && (c.padLeft() + c.padTop() + c.padRight()
                            + c.padBottom() > 0 || c.padIfSmaller()))) {
                throw new IllegalStateException(transform + " after a RandomCrop that pads is not there: the one"
                        + " resample cannot resize padding (torchvision resizes the padded image); resize first, or"
                        + " crop without padding");
            }
            transforms.add(transform);
            return this;
        }

        /**
         * Appends a pixel op, run on the 8-bit output tile after the resample, in the order added.
         *
         * @throws IllegalStateException when a tensor op was added before it (tensor ops run after Normalize)
         */
        public Builder add(PixelOp op) {
            Objects.requireNonNull(op, "op");
            if (!tensorOps.isEmpty()) {
                throw new IllegalStateException("add " + op + " before the tensor ops: pixel ops run before Normalize,"
                        + " tensor ops after it");
            }
            pixelOps.add(op);
            return this;
        }

        /** Appends an op on the normalized slot (as torchvision's transforms after {@code ToTensor}). */
        public Builder add(TensorOp op) {
            tensorOps.add(Objects.requireNonNull(op, "op"));
            return this;
        }

        /** {@code ToTensor} + {@code Normalize(mean, std)}; {@link Normalize#IMAGENET} by default. */
        public Builder normalize(Normalize normalize) {
            this.normalize = Objects.requireNonNull(normalize, "normalize");
            return this;
        }

        /**
         * Whether JPEGs are decoded at 1/2, 1/4 or 1/8 size when the region kept is at least that
         * much larger than the output (default true). The output then differs slightly from
         * PIL's full decode (libjpeg's scaled IDCT is a better low-pass than bilinear); false
         * gives PIL's pixels exactly.
         */
        public Builder dctScaling(boolean dctScaling) {
            this.dctScaling = dctScaling;
            return this;
        }

        /**
         * Whether only the part of a JPEG that holds the source region the output reads is
         * decoded (default true; see {@link dev.stoker.vision.decode.DecodeSession#decodeRegion}).
         * With libjpeg-turbo 3 the region is decoded in place, for every crop smaller than the
         * image, and the output is the whole decode's at the same scale, bit for bit. With 2.x
         * the JPEG is first cut, losslessly, to the MCUs around the region (libjpeg-turbo's crop
         * transform) when the region is small enough for this to save time, and the pixels then
         * differ from a whole decode's along the cut, by the chroma upsampling. False decodes the
         * whole image. With {@code dctScaling(false)} too, the output is PIL's, bit for bit
         * ({@link #exact()}).
         */
        public Builder cropDecode(boolean cropDecode) {
            this.cropDecode = cropDecode;
            return this;
        }

        /**
         * PIL's pixels, bit for bit: every image decoded whole, at full size ({@code cropDecode(false)},
         * {@code dctScaling(false)}).
         */
        public Builder exact() {
            this.cropDecode = false;
            this.dctScaling = false;
            return this;
        }

        /** Decoder options for the decoder the pipeline makes (and closes). */
        public Builder decodeOptions(DecodeOptions options) {
            this.decodeOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /** A decoder to share (the caller closes it); by default the pipeline makes its own. */
        public Builder decoder(ImageDecoder decoder) {
            this.decoder = Objects.requireNonNull(decoder, "decoder");
            return this;
        }

        public ImagePipeline build() {
            return new ImagePipeline(this);
        }
    }
}
