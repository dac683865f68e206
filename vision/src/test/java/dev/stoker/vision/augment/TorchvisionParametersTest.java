package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.lang.foreign.Arena;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What a user coming from torchvision 0.14 passes: the same meaning, or a refusal that says what
 * differs.
 */
class TorchvisionParametersTest {

    @Test
    void randomAffineTakesTorchvisionsDegreesAndShearForms() {
        // degrees=10 and degrees=(-5, 20); shear=8 is the x shear in [-8, 8]
        assertThat(RandomAffine.of(10)).isEqualTo(RandomAffine.of(-10, 10));
        assertThat(RandomAffine.of(-5, 20).degreesMax()).isEqualTo(20);
        RandomAffine sheared = RandomAffine.of(0).shear(8);
        assertThat(new double[] {sheared.shearXMin(), sheared.shearXMax(), sheared.shearYMin(), sheared.shearYMax()})
                .containsExactly(-8, 8, 0, 0);
        assertThat(RandomAffine.of(0).fill(Fill.of(7)).translate(0.1, 0.1).shear(3).fill()).isEqualTo(Fill.of(7));
        // torchvision: "If degrees is a single number, it must be positive."
        assertThatThrownBy(() -> RandomAffine.of(-10)).hasMessageContaining("non-negative")
                .hasMessageContaining("(min, max)");
        assertThatThrownBy(() -> RandomAffine.of(0).shear(-3)).hasMessageContaining("shear");
        assertThatThrownBy(() -> RandomAffine.of(0).scale(0, 1)).hasMessageContaining("positive scale");
        assertThatThrownBy(() -> RandomAffine.of(0).translate(1.5, 0)).hasMessageContaining("[0, 1]");
    }

    @Test
    void randomRotationRefusesANegativeSingleNumber() {
        assertThat(new RandomRotation(15)).isEqualTo(new RandomRotation(-15, 15));
        assertThatThrownBy(() -> new RandomRotation(-15)).hasMessageContaining("non-negative")
                .hasMessageContaining("RandomRotation(min, max)");
    }

    @Test
    void randAugmentWithNoOpsLeavesTheImage() {
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        Tile tile = Tile.of(32, 24, photo);
        new RandAugment(0, 9).apply(tile, SampleRandom.of(1, 0, 0));
        assertThat(tile.toArray()).isEqualTo(photo);
        assertThatThrownBy(() -> new RandAugment(2, -1)).hasMessageContaining("from the end");
        assertThatThrownBy(() -> new RandAugment(2, 31)).hasMessageContaining("magnitude < bins");
    }

    @Test
    void gaussianBlurTakesARectangularKernelAsTorchvisionsKxKy() {
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        byte[] all = Fixtures.bytes("augment/blur_rect.rgb");
        int cases = 0;
        for (String[] row : Fixtures.table("augment/blur_rect.txt")) {
            int kx = Integer.parseInt(row[0]);
            int ky = Integer.parseInt(row[1]);
            double sigma = Double.parseDouble(row[2]);
            int offset = Integer.parseInt(row[3]);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + photo.length);
            Tile tile = Tile.of(32, 24, photo);
            new GaussianBlur(kx, ky, sigma, sigma).apply(tile, SampleRandom.of(1, 0, 0));
            assertThat(Fixtures.maxDiff(tile.toArray(), expected)).as("kernel %dx%d", kx, ky).isLessThanOrEqualTo(1);
            Tile swapped = Tile.of(32, 24, photo);
            Adjust.gaussianBlur(swapped, ky, kx, sigma);
            assertThat(Fixtures.maxDiff(swapped.toArray(), expected)).as("kx and ky swapped").isGreaterThan(1);
            cases++;
        }
        assertThat(cases).isEqualTo(3);
        assertThat(new GaussianBlur(5, 0.5)).isEqualTo(new GaussianBlur(5, 5, 0.5, 0.5));
        assertThat(new GaussianBlur(5)).isEqualTo(new GaussianBlur(5, 5, 0.1, 2.0));
        assertThatThrownBy(() -> new GaussianBlur(5, 4, 0.1, 2)).hasMessageContaining("odd").hasMessageContaining("5x4");
        assertThatThrownBy(() -> new GaussianBlur(5, 0)).hasMessageContaining("positive");
    }

    @Test
    void randomErasingTakesOneValueForEveryChannel() {
        assertThat(new RandomErasing(1, 0.02, 0.33, 0.3, 3.3, new float[] {0.5f}).value())
                .containsExactly(0.5f, 0.5f, 0.5f);
        assertThatThrownBy(() -> new RandomErasing(1, 0.02, 0.33, 0.3, 3.3, new float[] {1, 2}))
                .hasMessageContaining("one number or one per channel");
        try (Arena arena = Arena.ofConfined()) {
            Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 8, 8));
            new RandomErasing(1, 0.3, 0.3, 1, 1, new float[] {2f}).apply(slot, SampleRandom.of(1, 0, 0));
            int twos = 0;
            for (int i = 0; i < 3 * 64; i++) {
                twos += slot.getDouble(i) == 2.0 ? 1 : 0;
            }
            assertThat(twos).as("a 4x4 square of 2 in each channel").isEqualTo(3 * 16);
        }
    }

    @Test
    void randomInvertIsTorchvisions() {
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        Tile always = Tile.of(32, 24, photo);
        new RandomInvert(1).apply(always, SampleRandom.of(1, 0, 0));
        for (int i = 0; i < photo.length; i++) {
            assertThat(always.toArray()[i] & 0xFF).isEqualTo(255 - (photo[i] & 0xFF));
        }
        Tile never = Tile.of(32, 24, photo);
        new RandomInvert(0).apply(never, SampleRandom.of(1, 0, 0));
        assertThat(never.toArray()).isEqualTo(photo);
        assertThat(new RandomInvert()).isEqualTo(new RandomInvert(0.5));
        assertThatThrownBy(() -> new RandomInvert(1.5)).hasMessageContaining("RandomInvert");
    }

    @Test
    void randomResizedCropTakesASizePairAndAScaleFromZero() {
        // size=(height, width); scale=(0.0, 1.0) is accepted by torchvision (an empty try is retried)
        assertThat(new RandomResizedCrop(24, 32)).isEqualTo(new RandomResizedCrop(24, 32, 0.08, 1.0, 3.0 / 4.0, 4.0 / 3.0));
        RandomResizedCrop fromZero = new RandomResizedCrop(16, 16, 0.0, 1.0, 0.75, 4.0 / 3.0);
        for (long i = 0; i < 50; i++) {
            var box = fromZero.params(40, 30, SampleRandom.of(3, 0, i));
            assertThat(box.width()).isBetween(1, 40);
            assertThat(box.height()).isBetween(1, 30);
        }
        assertThatThrownBy(() -> new RandomResizedCrop(16, 16, 0.5, 0.2, 0.75, 1.3)).hasMessageContaining("scaleMin <= scaleMax");
        assertThatThrownBy(() -> new RandomResizedCrop(0, 16)).hasMessageContaining("size is positive");
    }

    @Test
    void resizeTakesMaxSizeAsTorchvision() {
        int cases = 0;
        for (String[] row : Fixtures.table("augment/resize_max.txt")) {
            int[] v = Arrays.stream(row).mapToInt(Integer::parseInt).toArray();
            assertThat(Resize.shorterSide(v[2], v[3]).outputSize(v[0], v[1])).as(String.join(" ", row))
                    .containsExactly(v[4], v[5]);
            cases++;
        }
        assertThat(cases).isEqualTo(40);
        assertThat(Resize.shorterSide(256, 300).outputSize(500, 375)).containsExactly(300, 225);
        assertThat(Resize.shorterSide(256, 1000).outputSize(500, 375)).isEqualTo(Resize.shorterSide(256).outputSize(500, 375));
        // torchvision: "max_size = 256 must be strictly greater than the requested size for the smaller edge size"
        assertThatThrownBy(() -> Resize.shorterSide(256, 256)).hasMessageContaining("larger than the shorter side");
        assertThatThrownBy(() -> new Resize(224, 224, 0, 300)).hasMessageContaining("shorter side only");
    }
}
