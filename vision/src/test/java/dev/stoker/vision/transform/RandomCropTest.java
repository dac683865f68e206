package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.augment.RandomVerticalFlip;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link RandomCrop} and {@link RandomVerticalFlip} against torchvision 0.14 with its draws
 * scripted (fixtures from make_crop_fixtures.py): exact, padding included.
 */
class RandomCropTest {
    private static final byte[] PHOTO = Fixtures.bytes("augment/photo.rgb");

    @Test
    void everyPaddingFormMatchesTorchvision() {
        byte[] all = Fixtures.bytes("augment/random_crop.rgb");
        int cases = 0;
        for (String[] row : Fixtures.table("augment/random_crop.txt")) {
            if (row[0].equals("vflip")) {
                continue;
            }
            int h = Integer.parseInt(row[0]);
            int w = Integer.parseInt(row[1]);
            int[] pad = row[2].equals("-") ? new int[0] : Arrays.stream(row[2].split(",")).mapToInt(Integer::parseInt).toArray();
            RandomCrop crop = new RandomCrop(h, w);
            crop = switch (pad.length) {
                case 0 -> crop;
                case 1 -> crop.padding(pad[0]);
                case 2 -> crop.padding(pad[0], pad[1]);
                default -> crop.padding(pad[0], pad[1], pad[2], pad[3]);
            };
            if (row[3].equals("1")) {
                crop = crop.padIfNeeded();
            }
            int top = Integer.parseInt(row[4]);
            int left = Integer.parseInt(row[5]);
            Geometry g = new Geometry(32, 24);
            if (top < 0) {
                crop.apply(g, null);    // the padded image is the crop's size: no draw (a null random would throw)
            } else {
                crop.crop(g, crop.pad(g), top, left);
            }
            int offset = Integer.parseInt(row[6]);
            assertThat(render(g)).as(String.join(" ", row)).isEqualTo(Arrays.copyOfRange(all, offset, offset + 3 * h * w));
            cases++;
        }
        assertThat(cases).isEqualTo(8);
    }

    @Test
    void theDrawsStayInThePaddedImageAndAreKeyedOnTheSample() {
        RandomCrop crop = new RandomCrop(32).padding(4);
        assertThat(crop.sizeEffect()).isEqualTo(SizeEffect.fixed(32, 32));
        java.util.Set<String> boxes = new java.util.HashSet<>();
        for (long i = 0; i < 200; i++) {
            Geometry a = new Geometry(32, 32);
            Geometry b = new Geometry(32, 32);
            crop.apply(a, SampleRandom.of(4, 0, i));
            crop.apply(b, SampleRandom.of(4, 0, i));
            assertThat(render(a)).isEqualTo(render(b));
            assertThat(a.width()).isEqualTo(32);
            boxes.add(a.sourceRegion().toString());
        }
        assertThat(boxes.size()).as("the 81 places of a 32 crop in 40x40").isGreaterThan(40);
    }

    @Test
    void aCropLargerThanThePaddedImageIsRefusedUnlessPadded() {
        assertThatThrownBy(() -> new RandomCrop(30, 40).apply(new Geometry(32, 24), SampleRandom.of(1, 0, 0)))
                .hasMessageContaining("padIfNeeded()").hasMessageContaining("30x40");
        assertThatThrownBy(() -> new RandomCrop(8).padding(-1)).hasMessageContaining("0 or more");
        assertThatThrownBy(() -> new RandomCrop(0, 8)).hasMessageContaining("positive");
        // the one resample cannot resize padding: refused when built, not on the samples whose crop pads
        assertThatThrownBy(() -> ImagePipeline.builder().add(new RandomCrop(28).padding(2)).add(Resize.shorterSide(16)))
                .hasMessageContaining("after a RandomCrop that pads");
        ImagePipeline.builder().add(new RandomCrop(20)).add(Resize.shorterSide(16)).build().close();
    }

    @Test
    void aVerticalFlipIsTorchvisionsVflipAndGoesAfterTheGeometry() {
        byte[] all = Fixtures.bytes("augment/random_crop.rgb");
        String[] row = Fixtures.table("augment/random_crop.txt").getLast();
        int offset = Integer.parseInt(row[5]);
        Tile tile = Tile.of(32, 24, PHOTO);
        new RandomVerticalFlip(1).apply(tile, SampleRandom.of(1, 0, 0));
        assertThat(tile.toArray()).isEqualTo(Arrays.copyOfRange(all, offset, offset + PHOTO.length));
        Tile kept = Tile.of(32, 24, PHOTO);
        new RandomVerticalFlip(0).apply(kept, SampleRandom.of(1, 0, 0));
        assertThat(kept.toArray()).isEqualTo(PHOTO);
        assertThatThrownBy(() -> ImagePipeline.builder().add(new RandomVerticalFlip()).add(new RandomCrop(16)))
                .isInstanceOf(IllegalStateException.class);
    }

    private static byte[] render(Geometry g) {
        Scratch scratch = new Scratch();
        Resampler.render(MemorySegment.ofArray(PHOTO), 32, 24, g, scratch.tile(), scratch);
        return scratch.tile().toArray();
    }
}
