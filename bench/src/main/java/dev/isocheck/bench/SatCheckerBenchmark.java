package dev.isocheck.bench;

import dev.isocheck.IsolationLevel;
import dev.isocheck.format.DbcopHistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.internal.solve.SatChecker;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Times {@link SatChecker} stage by stage on a serial history of a given size, or on a dbcop
 * {@code history.bincode}. Run it with
 * {@code java -cp bench/target/isocheck-bench.jar dev.isocheck.bench.SatCheckerBenchmark ARGUMENTS}:
 * {@code sessions perSession [keys [valueDomain]]} or a path. Each level is checked once to warm
 * up, then five times; the median is printed.
 */
public final class SatCheckerBenchmark {

    private static final int RUNS = 5;

    private SatCheckerBenchmark() {
    }

    /** Builds or reads the history, then checks it at every level and prints the timings. */
    public static void main(String[] args) throws Exception {
        History history;
        if (args.length == 1) {
            history = new DbcopHistoryReader().read(Path.of(args[0]));
        } else {
            int sessions = Integer.parseInt(args[0]);
            int perSession = Integer.parseInt(args[1]);
            int keys = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
            int domain = args.length > 3 ? Integer.parseInt(args[3]) : 0;
            Workload workload = Workload.defaults().withSessions(sessions, perSession).withMaxOpsPerTransaction(8)
                    .withKeys(keys, keys / 5).withMix(6, 4, 1, 0).withValueDomain(domain).withAbortProbability(0.05)
                    .withRecordTimes(true);
            history = new HistoryGenerator(workload, SimulatedDatabase.serial()).generate(42).history();
        }
        System.out.printf("%s, %d operations%n", history, history.operationCount());
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            new SatChecker().run(history, level);
            long[] total = new long[RUNS];
            SatChecker.Report report = null;
            for (int i = 0; i < RUNS; i++) {
                long start = System.nanoTime();
                report = new SatChecker().run(history, level);
                total[i] = (System.nanoTime() - start) / 1_000_000;
            }
            Arrays.sort(total);
            String verdict = report.verdict().toString();
            System.out.printf("%-20s median %5d ms (build %d, prune %d, encode %d, solve %d; last run) variables %d, cycles learnt %d%n"
                    + "%-20s %s%n%-20s %s%n", level, total[RUNS / 2], report.buildMillis(), report.pruneMillis(),
                    report.encodeMillis(), report.solveMillis(), report.variables(), report.cyclesLearnt(), "", report.pruning(),
                    "", verdict.substring(0, Math.min(100, verdict.length())));
        }
    }
}
