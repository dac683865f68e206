package dev.stoker.metrics;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The totals of every stage at one moment: a snapshot of a {@link StageClock}.
 *
 * <pre>{@code
 * StageTimes t = loader.profile().times();
 * double decodeMs = t.get(Stage.DECODE).meanMillis();
 * }</pre>
 */
public record StageTimes(Map<Stage, StageTotal> totals) {
    public StageTimes {
        EnumMap<Stage, StageTotal> copy = new EnumMap<>(Stage.class);
        for (Stage s : Stage.values()) {
            copy.put(s, totals.getOrDefault(s, StageTotal.NONE));
        }
        totals = Collections.unmodifiableMap(copy);
    }

    /** The total of {@code stage}; {@link StageTotal#NONE} when it was never timed. */
    public StageTotal get(Stage stage) {
        return totals.get(stage);
    }

    /** What was timed since {@code earlier}, a snapshot of the same clock taken before this one. */
    public StageTimes minus(StageTimes earlier) {
        Map<Stage, StageTotal> out = new EnumMap<>(Stage.class);
        for (Stage s : Stage.values()) {
            StageTotal now = get(s);
            StageTotal then = earlier.get(s);
            out.put(s, new StageTotal(now.nanos() - then.nanos(), now.count() - then.count()));
        }
        return new StageTimes(out);
    }

    /** Nanoseconds of {@code stage}. */
    public long nanos(Stage stage) {
        return get(stage).nanos();
    }
}
