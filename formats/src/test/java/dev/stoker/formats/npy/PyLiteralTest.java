package dev.stoker.formats.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PyLiteralTest {

    @Test
    void parsesAHeaderDict() throws Exception {
        Object v = PyLiteral.parse("{'descr': '<f4', \"fortran_order\": False, 'shape': (3, 4L), }   \n");
        assertThat(v).isEqualTo(Map.of("descr", "<f4", "fortran_order", false,
                "shape", new PyLiteral.Tuple(List.of(3L, 4L))));
    }

    @Test
    void tellsTuplesFromParentheses() throws Exception {
        assertThat(PyLiteral.parse("()")).isEqualTo(new PyLiteral.Tuple(List.of()));
        assertThat(PyLiteral.parse("(7,)")).isEqualTo(new PyLiteral.Tuple(List.of(7L)));
        assertThat(PyLiteral.parse("(7)")).isEqualTo(7L);
        assertThat(PyLiteral.parse("[1, -2]")).isEqualTo(List.of(1L, -2L));
        assertThat(PyLiteral.parse("(None, True)")).isEqualTo(new PyLiteral.Tuple(Arrays.asList(null, true)));
        assertThat(PyLiteral.parse("'a\\'b'")).isEqualTo("a'b");
    }

    @Test
    void namesWhereTheTextStoppedMakingSense() {
        assertThatThrownBy(() -> PyLiteral.parse("{'a': 1")).hasMessageContaining("character 7");
        assertThatThrownBy(() -> PyLiteral.parse("{'a' 1}")).hasMessageContaining("expected ':'");
        assertThatThrownBy(() -> PyLiteral.parse("{'a': os.system('x')}")).hasMessageContaining("unexpected name");
        assertThatThrownBy(() -> PyLiteral.parse("1.5")).hasMessageContaining("non-integer");
        assertThatThrownBy(() -> PyLiteral.parse("{} x")).hasMessageContaining("after the end");
        assertThatThrownBy(() -> PyLiteral.parse("[".repeat(10_000))).hasMessageContaining("nested");
        assertThatThrownBy(() -> PyLiteral.parse("'abc")).hasMessageContaining("not closed");
    }
}
