package dev.stoker.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FieldSplitTest {

    @Test
    void keepsTheFieldsInTheGivenOrder() {
        var byName = (FieldSplit.ByName) FieldSplit.names(List.of("b", "a"), List.of("c"));
        var byPosition = (FieldSplit.ByPosition) FieldSplit.positions(List.of(2, 0), List.of());

        assertThat(byName.data()).containsExactly("b", "a");
        assertThat(byName.labels()).containsExactly("c");
        assertThat(byPosition.data()).containsExactly(2, 0);
        assertThat(byPosition.labels()).isEmpty();
        assertThat(FieldSplit.firstIsData()).isSameAs(FieldSplit.FirstIsData.INSTANCE);
    }

    @Test
    void needsADataField() {
        assertThatThrownBy(() -> FieldSplit.names(List.of(), List.of("label")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one data field");
        assertThatThrownBy(() -> FieldSplit.positions(List.of(), List.of(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one data field");
    }

    @Test
    void refusesAFieldNamedTwiceABlankNameAndANegativePosition() {
        assertThatThrownBy(() -> FieldSplit.names(List.of("x"), List.of("y", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("field 'x' is named twice");
        assertThatThrownBy(() -> FieldSplit.names(List.of(" "), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> FieldSplit.positions(List.of(0), List.of(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("field 0 is named twice");
        assertThatThrownBy(() -> FieldSplit.positions(List.of(-1), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start at 0, not -1");
    }
}
