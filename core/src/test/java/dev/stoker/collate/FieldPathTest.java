package dev.stoker.collate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FieldPathTest {

    @Test
    void rootIsTheSamples() {
        assertThat(FieldPath.root()).hasToString("the samples");
        assertThat(FieldPath.root().isRoot()).isTrue();
        assertThat(FieldPath.root().field("x").isRoot()).isFalse();
    }

    @Test
    void namesJoinWithDots() {
        assertThat(FieldPath.root().field("image")).hasToString("field 'image'");
        assertThat(FieldPath.root().field("meta").field("id")).hasToString("field 'meta.id'");
    }

    @Test
    void elementsWrapTheirEnclosingField() {
        assertThat(FieldPath.root().element(1)).hasToString("element 1");
        assertThat(FieldPath.root().field("pair").element(0)).hasToString("element 0 of field 'pair'");
        assertThat(FieldPath.root().element(0).field("image")).hasToString("field 'image' of element 0");
        assertThat(FieldPath.root().field("a").element(2).field("b").field("c"))
                .hasToString("field 'b.c' of element 2 of field 'a'");
    }

    @Test
    void equalPathsAreEqual() {
        assertThat(FieldPath.root().field("a").element(1)).isEqualTo(FieldPath.root().field("a").element(1))
                .hasSameHashCodeAs(FieldPath.root().field("a").element(1))
                .isNotEqualTo(FieldPath.root().field("a").element(2));
    }
}
