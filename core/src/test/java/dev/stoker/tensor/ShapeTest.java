package dev.stoker.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShapeTest {

    @Test
    void elementsAreTheProductOfTheDimensions() {
        assertThat(Shape.of(32, 3, 224, 224).elements()).isEqualTo(4_816_896L);
        assertThat(Shape.of(5, 0, 7).elements()).isZero();
        assertThat(Shape.scalar().elements()).isEqualTo(1);
        assertThat(Shape.of().rank()).isZero();
        assertThat(Shape.of(4L, 5L).rank()).isEqualTo(2);
        assertThat(Shape.of(4L, 5L).dim(1)).isEqualTo(5);
    }

    @Test
    void dropFirstPrependAndWithFirst() {
        Shape s = Shape.of(32, 3, 224, 224);
        assertThat(s.dropFirst()).isEqualTo(Shape.of(3, 224, 224));
        assertThat(s.dropFirst().prepend(32)).isEqualTo(s);
        assertThat(s.withFirst(16)).isEqualTo(Shape.of(16, 3, 224, 224));
        assertThat(Shape.scalar().prepend(7)).isEqualTo(Shape.of(7));
        assertThat(Shape.of(7).dropFirst()).isEqualTo(Shape.scalar());
        assertThat(s).isEqualTo(Shape.of(32, 3, 224, 224)); // unchanged
        assertThatThrownBy(() -> Shape.scalar().dropFirst()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Shape.scalar().withFirst(1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void equalityIsByDimensions() {
        assertThat(Shape.of(2, 3)).isEqualTo(Shape.of(2L, 3L)).hasSameHashCodeAs(Shape.of(2L, 3L));
        assertThat(Shape.of(2, 3)).isNotEqualTo(Shape.of(3, 2)).isNotEqualTo(Shape.of(2, 3, 1));
        assertThat(Shape.of()).isEqualTo(Shape.scalar());
    }

    @Test
    void negativeDimensionsAreRejected() {
        assertThatThrownBy(() -> Shape.of(2, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension 1").hasMessageContaining("negative");
        assertThatThrownBy(() -> Shape.of(2, 3).withFirst(-2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Shape.of(2, 3).prepend(-2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void overflowingElementCountsAreRejected() {
        assertThatThrownBy(() -> Shape.of(1L << 40, 1L << 40)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void toArrayIsACopyAndToStringListsTheDimensions() {
        Shape s = Shape.of(3, 4);
        long[] dims = s.toArray();
        dims[0] = 99;
        assertThat(s.dim(0)).isEqualTo(3);
        assertThat(s).hasToString("[3, 4]");
        assertThat(Shape.scalar()).hasToString("[]");
        long[] source = {5, 6};
        Shape fromArray = Shape.of(source);
        source[0] = 1;
        assertThat(fromArray.dim(0)).as("of() copies its argument").isEqualTo(5);
    }
}
