package dev.stoker.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MemorySource;
import dev.stoker.memory.MemorySources;
import dev.stoker.memory.PooledBuffer;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** What every machine sees, with or without a GPU: the probe's one line and the CPU fallbacks. */
class CudaAvailabilityTest {

    @Test
    void statusIsOneLineThatSaysWhetherThereIsCuda() {
        String status = Cuda.status();
        assertThat(status).doesNotContain("\n");
        if (Cuda.isAvailable()) {
            assertThat(status).startsWith("CUDA ").contains("cuda:0");
        } else {
            assertThat(status).startsWith("no CUDA: ");
        }
    }

    @Test
    void withoutCudaRequireSaysWhy() {
        assumeFalse(Cuda.isAvailable(), "this machine has CUDA");
        assertThat(Cuda.runtime()).isEmpty();
        assertThatThrownBy(Cuda::require).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("no CUDA: ");
    }

    @Test
    void pinMemoryGivesUsableMemoryAndSaysWhichKind() {
        MemorySource source = MemorySources.pinned();
        try (BufferPool pool = BufferPool.builder().source(source).budgetBytes(8 << 20).build()) {
            try (PooledBuffer buf = pool.acquire(1 << 20, "test")) {
                buf.segment().setAtIndex(ValueLayout.JAVA_LONG, 1000, 42L);
                assertThat(buf.segment().getAtIndex(ValueLayout.JAVA_LONG, 1000)).isEqualTo(42L);
                assertThat(buf.segment().address() % 4096).isZero();
            }
            String how = source.describe();
            if (Cuda.isAvailable()) {
                assertThat(how).contains("cudaHostAlloc");
                assertThat(source.isPageLocked()).isTrue();
            } else {
                assertThat(how).containsAnyOf("mlock", "ordinary memory");
            }
        }
    }
}
