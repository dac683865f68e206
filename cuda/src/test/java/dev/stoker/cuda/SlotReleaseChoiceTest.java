package dev.stoker.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import org.junit.jupiter.api.Test;

class SlotReleaseChoiceTest {
    private static final DeviceStage PLAIN = (slot, host, copied, stream) -> copied;
    private static final DeviceStage BLOCKING = new DeviceStage() {
        @Override
        public Object apply(int slot, Batch host, Object copied, long stream) {
            return copied;
        }

        @Override
        public boolean waitsForSlotOnHost() {
            return true;
        }
    };

    @Test
    void theStagesPreferenceHoldsUnlessTheBuilderChose() {
        assertThat(DevicePrefetcher.waitsOnHost(null, null)).as("plain copies wait on the GPU").isFalse();
        assertThat(DevicePrefetcher.waitsOnHost(null, PLAIN)).isFalse();
        assertThat(DevicePrefetcher.waitsOnHost(null, BLOCKING)).isTrue();
        assertThat(DevicePrefetcher.waitsOnHost(false, BLOCKING)).isFalse();
        assertThat(DevicePrefetcher.waitsOnHost(true, null)).isTrue();
    }
}
