package dev.stoker.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * {@link ParquetReadBenchmark}'s two readers (Hardwood's own column readers, Stoker's fill path)
 * alternated in one JVM, round after round, the one that goes first swapped each round: each
 * round's ratio (Stoker's time over Hardwood's, wall and process CPU) compares two reads a few
 * seconds apart, so a load that drifts over minutes on a shared machine moves both. JMH runs all
 * of one benchmark's iterations, then the other's, and a load that rose between them lands on one
 * side alone.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xmx2g \
 *      -cp bench/target/benchmarks.jar dev.stoker.bench.ParquetPairedRounds /tmp/bench.parquet 10 2
 * </pre>
 *
 * Arguments: the file ({@code make_bench_file.py}'s), rounds, rounds left out as warm-up. Prints
 * each round, then the median ratios and the best time of each side.
 */
public final class ParquetPairedRounds {
    private ParquetPairedRounds() {
    }

    /**
     * Runs the rounds.
     *
     * @param args the file, rounds, warm-up rounds
     * @throws Exception when a read fails
     */
    public static void main(String[] args) throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ParquetReadBenchmark b = new ParquetReadBenchmark();
        b.file = args[0];
        b.check();
        int rounds = Integer.parseInt(args[1]);
        int warm = Integer.parseInt(args[2]);
        if (rounds <= warm) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be more than the warm-up rounds (" + warm
                    + ")");
        }
        int kept = rounds - warm;
        double[] wallRatio = new double[kept];
        double[] cpuRatio = new double[kept];
        double[] hardwood = new double[kept];
        double[] stoker = new double[kept];
        long check = 0;
        for (int r = 0; r < rounds; r++) {
            long[] wall = new long[2];
            long[] cpu = new long[2];
            for (int k = 0; k < 2; k++) {
                int which = r % 2 == 0 ? k : 1 - k;
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                check += which == 0 ? b.hardwood() : b.stokerFill();
                wall[which] = System.nanoTime() - t0;
                cpu[which] = os.getProcessCpuTime() - c0;
            }
            System.out.printf("round %d: hardwood %d ms (CPU %d ms), stoker fill %d ms (CPU %d ms), load %.2f%n", r,
                    wall[0] / 1_000_000, cpu[0] / 1_000_000, wall[1] / 1_000_000, cpu[1] / 1_000_000,
                    os.getSystemLoadAverage());
            if (r >= warm) {
                int i = r - warm;
                wallRatio[i] = (double) wall[1] / wall[0];
                cpuRatio[i] = (double) cpu[1] / cpu[0];
                hardwood[i] = wall[0] / 1e6;
                stoker[i] = wall[1] / 1e6;
            }
        }
        Arrays.sort(wallRatio);
        Arrays.sort(cpuRatio);
        Arrays.sort(hardwood);
        Arrays.sort(stoker);
        System.out.printf("median of %d rounds, stoker fill / hardwood: wall %.3f, process CPU %.3f; best wall: "
                + "hardwood %.0f ms, stoker fill %.0f ms (check %d)%n", kept, median(wallRatio), median(cpuRatio),
                hardwood[0], stoker[0], check);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
