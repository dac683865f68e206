package dev.stoker.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stoker.loader.InFlightBound;
import dev.stoker.loader.LoaderProfile;
import dev.stoker.loader.LoaderStats;
import dev.stoker.loader.Verdict;
import dev.stoker.memory.PoolStats;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageTotal;
import dev.stoker.metrics.Trace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code stoker profile --report} draws, as one JSON object: the run's profile and verdict,
 * the memory bound, per-batch stage times and the consumer's waits (from the trace), each worker's
 * busy share over time (from the trace) and the sampler's readings over time. The page
 * ({@link ReportPage}) only draws it; every sum is made here, where it is tested.
 *
 * <p>Keys that name a batch: the workers' spans carry the batch's number in its epoch, the
 * consumer's the count of batches it had taken in the pass; the two agree in order, but a batch
 * left empty by skipped samples or an out-of-order delivery makes them differ, so the consumer's
 * chart and the stages' chart each keep their own numbering.
 */
final class ProfileReport {
    /** Buckets of the workers' busy chart, across the whole run. */
    static final int BUSY_BUCKETS = 120;
    /** The window the consumer's wait share over time is taken over. */
    static final long WAIT_WINDOW_NANOS = 1_000_000_000L;
    /** Bins of each stage's histogram. */
    static final int HISTOGRAM_BINS = 30;

    /** The parts a batch's making is stacked into, in the chart's order. */
    enum Part {
        READ("read"), DECODE("decode"), TRANSFORM("transform"), MEMORY("memory wait"), FETCH_REST("other fetch"),
        COLLATE("collate"), COPY("copy");

        final String label;

        Part(String label) {
            this.label = label;
        }
    }

    /**
     * What a report is made of.
     *
     * @param workload      the workload's name, e.g. {@code W1}
     * @param title         its title
     * @param summary       its one-line summary
     * @param configuration the configuration's name
     * @param stepMillis    the stand-in step's length
     * @param profile       the loader's profile at the end
     * @param bound         the loader's in-flight bound at the end
     * @param poolBudget    the pool's budget in bytes
     * @param pool          the pool's counters at the end
     * @param stats         the loader's counters at the end
     * @param trace         the run's trace (stopped)
     * @param samples       the sampler's readings, oldest first
     */
    record Input(String workload, String title, String summary, String configuration, double stepMillis,
                 LoaderProfile profile, InFlightBound bound, long poolBudget, PoolStats pool, LoaderStats stats,
                 Trace trace,
                 List<ProfileSampler.Sample> samples) {}

    private ProfileReport() {
    }

    /** The report's data. */
    static ObjectNode build(Input in) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("workload", in.workload());
        root.put("title", in.title());
        root.put("summary", in.summary());
        root.put("configuration", in.configuration());
        root.put("stepMillis", in.stepMillis());
        LoaderProfile p = in.profile();
        root.put("numWorkers", p.numWorkers());
        root.put("prefetchFactor", p.prefetchFactor());
        root.put("ioConcurrency", p.ioConcurrency());
        root.put("batches", p.batches());
        root.put("activeSeconds", p.activeNanos() / 1e9);
        root.put("waitShare", p.waitShare());
        root.put("firstBatchMillis", p.times().get(Stage.FIRST_BATCH).meanMillis());
        root.put("workerBusyShare", p.workerBusyShare());
        root.put("coresUsed", p.coresUsed());
        root.put("cores", p.cores());
        ObjectNode verdict = root.putObject("verdict");
        verdict.put("kind", p.verdict().kind().words());
        verdict.put("reason", p.verdict().reason());
        String[] split = splitVerdict(p.verdict().kind(), p.verdict().reason());
        verdict.put("headline", split[0]);
        verdict.put("nextStep", split[1]);
        root.put("chartLibrary", ReportPage.CHART_LIBRARY);
        ArrayNode stages = root.putArray("stages");
        for (Stage s : Stage.values()) {
            StageTotal t = p.times().get(s);
            stages.addObject().put("stage", s.label()).put("part", s.isPart()).put("seconds", t.seconds())
                    .put("count", t.count()).put("meanMillis", t.meanMillis());
        }
        ObjectNode memory = root.putObject("memory");
        memory.put("bound", in.bound().toString());
        memory.put("boundBytes", in.bound().bytes());
        memory.put("batchesInFlight", in.bound().batches());
        memory.put("batchBytes", in.bound().batchBytes());
        memory.put("poolBudgetBytes", in.poolBudget());
        memory.put("poolPeakBytes", in.pool().peakReservedBytes());
        memory.put("poolAllocations", in.pool().allocations());
        memory.put("poolReuses", in.pool().reuses());
        ObjectNode counters = root.putObject("counters");
        counters.put("batches", in.stats().batches());
        counters.put("samples", in.stats().samples());
        counters.put("failedBatches", in.stats().failedBatches());
        counters.put("skippedSamples", in.stats().skippedSamples());
        ArrayNode notTimed = root.putArray("notTimed");
        if (p.times().get(Stage.COPY).count() == 0) {
            notTimed.add("copy: nothing copied the batches to a device on the loader's clock (stoker profile's loop"
                    + " has no device; a DevicePrefetcher given the loader's stageClock() times its copies)");
        }
        ObjectNode trace = root.putObject("trace");
        trace.put("events", in.trace().events());
        trace.put("dropped", in.trace().dropped());

        Spans spans = Spans.of(in.trace());
        consumer(root.putObject("consumer"), spans);
        ObjectNode batches = root.putObject("perBatch");
        double[][] parts = spans.parts();
        ArrayNode keys = batches.putArray("batch");
        for (int i = 0; i < spans.batchKeys.size(); i++) {
            keys.add(i);
        }
        ObjectNode byPart = batches.putObject("parts");
        ObjectNode histograms = root.putObject("histograms");
        for (Part part : Part.values()) {
            double[] ms = parts[part.ordinal()];
            if (Arrays.stream(ms).allMatch(v -> v == 0)) {
                continue; // not timed: a dataset that does not say, or no collate on the fill path
            }
            numbers(byPart.putArray(part.label), ms);
            histogram(histograms.putObject(part.label), ms);
        }
        double[] wait = spans.consumerMillis(Stage.WAIT);
        if (wait.length > 0) {
            histogram(histograms.putObject("consumer wait"), wait);
        }
        workers(root.putObject("workers"), spans, in.trace());
        overTime(root.putObject("overTime"), in.samples(), in.trace().startNanos(), in.bound().bytes());
        return root;
    }

    /**
     * The verdict's first sentence (what happened) and the rest (what would help). The verdicts
     * are written that way; one without advice gets the advice its kind implies.
     */
    static String[] splitVerdict(Verdict.Kind kind, String reason) {
        int dot = reason.indexOf(". ");
        String headline = dot < 0 ? reason : reason.substring(0, dot + 1);
        String rest = dot < 0 ? "" : reason.substring(dot + 2).strip();
        if (rest.isEmpty()) {
            rest = switch (kind) {
                case COMPUTE_BOUND -> "nothing on the loader's side: it keeps up, the step is what takes the time.";
                case DATA_BOUND -> "more workers, or a deeper prefetch (see the charts below for which stage"
                        + " takes the time).";
                case UNKNOWN -> "a longer run: --batches or --epochs, so that the loop takes more batches.";
            };
        }
        return new String[] {headline, rest};
    }

    private static void consumer(ObjectNode out, Spans spans) {
        ArrayNode step = out.putArray("step");
        for (int i = 0; i < spans.consumerKeys.size(); i++) {
            step.add(i);
        }
        numbers(out.putArray("waitMillis"), spans.consumerMillis(Stage.WAIT));
        numbers(out.putArray("stepMillis"), spans.consumerMillis(Stage.STEP));
    }

    /** Each loading thread's busy share (fetch and collate) per bucket of the run's time. */
    private static void workers(ObjectNode out, Spans spans, Trace trace) {
        long end = Math.max(1, spans.endNanos);
        long width = Math.max(1, (end + BUSY_BUCKETS - 1) / BUSY_BUCKETS);
        ArrayNode t = out.putArray("seconds");
        for (int b = 0; b < BUSY_BUCKETS; b++) {
            t.add(b * width / 1e9);
        }
        ArrayNode names = out.putArray("names");
        ArrayNode busy = out.putArray("busy");
        ArrayNode total = out.putArray("busySeconds");
        Map<Long, String> threadNames = trace.threadNames();
        for (Map.Entry<Long, List<long[]>> e : spans.loadingByThread.entrySet()) {
            double[] share = new double[BUSY_BUCKETS];
            long sum = 0;
            for (long[] span : e.getValue()) {
                long s = span[0];
                long f = span[0] + span[1];
                sum += span[1];
                for (int b = (int) Math.min(BUSY_BUCKETS - 1, s / width); b < BUSY_BUCKETS && b * width < f; b++) {
                    long overlap = Math.min(f, (b + 1) * width) - Math.max(s, b * width);
                    share[b] += Math.max(0, overlap) / (double) width;
                }
            }
            names.add(threadNames.getOrDefault(e.getKey(), "thread " + e.getKey()));
            ArrayNode row = busy.addArray();
            for (double v : share) {
                row.add(round(Math.min(1, v)));
            }
            total.add(round(sum / 1e9));
        }
    }

    private static void overTime(ObjectNode out, List<ProfileSampler.Sample> samples, long origin, long boundBytes) {
        ArrayNode t = out.putArray("seconds");
        ArrayNode ready = out.putArray("ready");
        ArrayNode lent = out.putArray("lentMB");
        ArrayNode reserved = out.putArray("reservedMB");
        ArrayNode bound = out.putArray("boundMB");
        ArrayNode waitShare = out.putArray("waitShare");
        int from = 0;
        for (int i = 0; i < samples.size(); i++) {
            ProfileSampler.Sample s = samples.get(i);
            t.add(round((s.atNanos() - origin) / 1e9));
            ready.add(s.ready());
            lent.add(round(s.lentBytes() / 1e6));
            reserved.add(round(s.reservedBytes() / 1e6));
            if (boundBytes >= 0) {
                bound.add(round(boundBytes / 1e6));
            } else {
                bound.addNull();
            }
            // the share over the last WAIT_WINDOW_NANOS, not the last interval: an interval shorter
            // than a step holds either a wait or a step, and the line would only jump from 0 to 1
            while (from + 1 < i && s.atNanos() - samples.get(from + 1).atNanos() >= WAIT_WINDOW_NANOS) {
                from++;
            }
            ProfileSampler.Sample before = samples.get(from);
            long w = s.waitNanos() - before.waitNanos();
            long loop = w + s.stepNanos() - before.stepNanos();
            if (i > 0 && loop > 0) {
                waitShare.add(round((double) w / loop));
            } else {
                waitShare.addNull();
            }
        }
    }

    /** Equal bins from 0 to the largest value: their left edges and counts; NaN (none) is left out. */
    static void histogram(ObjectNode out, double[] values) {
        values = Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        double max = Arrays.stream(values).max().orElse(0);
        double width = max <= 0 ? 1 : max / HISTOGRAM_BINS;
        long[] counts = new long[HISTOGRAM_BINS];
        for (double v : values) {
            counts[(int) Math.min(HISTOGRAM_BINS - 1, Math.max(0, v / width))]++;
        }
        ArrayNode edges = out.putArray("fromMillis");
        ArrayNode n = out.putArray("count");
        for (int i = 0; i < HISTOGRAM_BINS; i++) {
            edges.add(round(i * width));
            n.add(counts[i]);
        }
    }

    /** The values, NaN as null (a gap in the chart). */
    private static void numbers(ArrayNode out, double[] values) {
        for (double v : values) {
            if (Double.isNaN(v)) {
                out.addNull();
            } else {
                out.add(round(v));
            }
        }
    }

    /** Four significant places past the point at the scale these charts have (ms, MB, shares): a smaller page. */
    private static double round(double v) {
        return Math.round(v * 1e4) / 1e4;
    }

    /** The trace's spans, summed per batch and grouped per thread. */
    static final class Spans {
        /** Batches made, in (epoch, batch) order; values index {@link #perBatch}. */
        final Map<List<Long>, Integer> batchKeys = new TreeMap<>(Spans::compareKeys);
        /** The consumer's batches, in (epoch, taken) order. */
        final Map<List<Long>, Integer> consumerKeys = new TreeMap<>(Spans::compareKeys);
        final List<EnumMap<Stage, Long>> perBatch = new ArrayList<>();
        final List<EnumMap<Stage, Long>> perConsumerBatch = new ArrayList<>();
        /** Fetch and collate spans by thread: {start, duration} since the trace began. */
        final Map<Long, List<long[]>> loadingByThread = new LinkedHashMap<>();
        long endNanos;

        static Spans of(Trace trace) {
            Spans s = new Spans();
            // primitive columns rather than an object per span: a trace may hold a million
            int n = trace.events();
            byte[] stage = new byte[n];
            long[][] cols = new long[5][n]; // thread, start, duration, epoch, batch
            int[] count = {0};
            trace.forEachSpan((st, tid, start, d, epoch, batch) -> {
                int i = count[0]++;
                if (i < n) {
                    stage[i] = (byte) st.ordinal();
                    cols[0][i] = tid;
                    cols[1][i] = Math.max(0, start); // a wait that began before the trace did
                    cols[2][i] = d;
                    cols[3][i] = epoch;
                    cols[4][i] = batch;
                }
            });
            int kept = Math.min(n, count[0]);
            Stage[] stages = Stage.values();
            // keys first, so that indices follow (epoch, batch) order whatever order spans were recorded in
            for (int i = 0; i < kept; i++) {
                List<Long> key = List.of(cols[3][i], cols[4][i]);
                if (isConsumer(stages[stage[i]])) {
                    s.consumerKeys.put(key, 0);
                } else if (cols[4][i] >= 0) {
                    s.batchKeys.put(key, 0);
                }
            }
            index(s.batchKeys, s.perBatch);
            index(s.consumerKeys, s.perConsumerBatch);
            for (int i = 0; i < kept; i++) {
                Stage st = stages[stage[i]];
                long start = cols[1][i];
                long d = cols[2][i];
                s.endNanos = Math.max(s.endNanos, start + d);
                List<Long> key = List.of(cols[3][i], cols[4][i]);
                boolean consumer = isConsumer(st);
                Integer row = consumer ? s.consumerKeys.get(key) : s.batchKeys.get(key);
                if (row != null) {
                    (consumer ? s.perConsumerBatch : s.perBatch).get(row).merge(st, d, Long::sum);
                }
                if (st == Stage.FETCH || st == Stage.COLLATE) {
                    s.loadingByThread.computeIfAbsent(cols[0][i], k -> new ArrayList<>()).add(new long[] {start, d});
                }
            }
            return s;
        }

        private static boolean isConsumer(Stage s) {
            return s == Stage.WAIT || s == Stage.FIRST_BATCH || s == Stage.STEP;
        }

        private static void index(Map<List<Long>, Integer> keys, List<EnumMap<Stage, Long>> rows) {
            int i = 0;
            for (Map.Entry<List<Long>, Integer> e : keys.entrySet()) {
                e.setValue(i++);
                rows.add(new EnumMap<>(Stage.class));
            }
        }

        private static int compareKeys(List<Long> a, List<Long> b) {
            int c = Long.compare(a.get(0), b.get(0));
            return c != 0 ? c : Long.compare(a.get(1), b.get(1));
        }

        /**
         * Milliseconds per batch of each {@link Part}. Memory wait is part of fetch on the fill
         * path (a batch with no collate) and of collate otherwise; each is taken out of the one
         * it is in, so the parts stack up to the batch's fetch plus collate (plus its copy, where
         * something copied it on the loader's clock).
         */
        double[][] parts() {
            double[][] out = new double[Part.values().length][perBatch.size()];
            for (int i = 0; i < perBatch.size(); i++) {
                EnumMap<Stage, Long> b = perBatch.get(i);
                long read = b.getOrDefault(Stage.READ, 0L);
                long decode = b.getOrDefault(Stage.DECODE, 0L);
                long transform = b.getOrDefault(Stage.TRANSFORM, 0L);
                long memory = b.getOrDefault(Stage.MEMORY, 0L);
                long fetch = b.getOrDefault(Stage.FETCH, 0L);
                long collate = b.getOrDefault(Stage.COLLATE, 0L);
                boolean collated = b.containsKey(Stage.COLLATE);
                long fetchRest = Math.max(0, fetch - read - decode - transform - (collated ? 0 : memory));
                long collateOwn = collated ? Math.max(0, collate - memory) : 0;
                out[Part.READ.ordinal()][i] = read / 1e6;
                out[Part.DECODE.ordinal()][i] = decode / 1e6;
                out[Part.TRANSFORM.ordinal()][i] = transform / 1e6;
                out[Part.MEMORY.ordinal()][i] = memory / 1e6;
                out[Part.FETCH_REST.ordinal()][i] = fetchRest / 1e6;
                out[Part.COLLATE.ordinal()][i] = collateOwn / 1e6;
                out[Part.COPY.ordinal()][i] = b.getOrDefault(Stage.COPY, 0L) / 1e6;
            }
            return out;
        }

        /**
         * Milliseconds of {@code stage} per batch the consumer took, NaN where it has none: the
         * first batch of a pass has no wait (its start-up is {@link Stage#FIRST_BATCH}, which
         * would dwarf every wait after it), the last batch of the run no step.
         */
        double[] consumerMillis(Stage stage) {
            double[] out = new double[perConsumerBatch.size()];
            for (int i = 0; i < out.length; i++) {
                Long n = perConsumerBatch.get(i).get(stage);
                out[i] = n == null ? Double.NaN : n / 1e6;
            }
            return out;
        }
    }
}
