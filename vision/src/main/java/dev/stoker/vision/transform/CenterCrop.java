package dev.stoker.vision.transform;

/**
 * torchvision's {@code CenterCrop}: the middle {@code height x width} of the image, the offsets
 * rounded half to even as Python's {@code round}; where the crop is larger than the image, the
 * image is padded with black on both sides (the extra pixel, if odd, on the right or bottom).
 *
 * @param height rows kept
 * @param width  columns kept
 */
public record CenterCrop(int height, int width) implements ImageTransform {
    public CenterCrop {
        if (height < 1 || width < 1) {
            throw new IllegalArgumentException("CenterCrop to " + width + "x" + height);
        }
    }

    public CenterCrop(int size) {
        this(size, size);
    }

    /** The crop for an image of {@code w x h}; negative offsets mean padding. */
    public CropBox params(int w, int h) {
        return new CropBox(offset(h, height), offset(w, width), height, width);
    }

    private static int offset(int size, int crop) {
        if (crop > size) {
            return -((crop - size) / 2);  // torchvision pads (crop - size) // 2 before
        }
        return (int) Math.rint((size - crop) / 2.0);
    }

    @Override
    public void apply(Geometry geometry, SampleRandom random) {
        geometry.crop(params(geometry.width(), geometry.height()));
    }

    @Override
    public SizeEffect sizeEffect() {
        return SizeEffect.fixed(height, width);
    }
}
