package dev.isocheck.solve;

import dev.isocheck.check.IsolationLevel;
import dev.isocheck.check.Verdict;
import dev.isocheck.format.DbcopHistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.simulate.HistoryGenerator;
import dev.isocheck.simulate.SimulatedDatabase;
import dev.isocheck.simulate.Workload;
import java.nio.file.Path;

/**
 * Times {@link SatChecker} on serial histories of a given size, or on a dbcop {@code history.bincode}.
 * Not a test; run its {@code main} by hand. Arguments: {@code sessions perSession [recordTimes] [plainKeys]} or a path.
 */
public final class SatCheckerBenchmark {

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
            boolean times = args.length <= 2 || Boolean.parseBoolean(args[2]);
            int keys = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
            Workload workload = Workload.defaults().withSessions(sessions, perSession).withMaxOpsPerTransaction(8)
                    .withKeys(keys, keys / 5).withMix(6, 4, 1, 0).withValueDomain(0).withAbortProbability(0.05).withRecordTimes(times);
            history = new HistoryGenerator(workload, SimulatedDatabase.serial()).generate(42).history();
        }
        System.out.printf("%s, %d operations%n", history, history.operationCount());
        for (IsolationLevel level : IsolationLevel.values()) {
            long start = System.nanoTime();
            Verdict verdict = new SatChecker().check(history, level);
            long millis = (System.nanoTime() - start) / 1_000_000;
            String shown = verdict.toString();
            System.out.printf("%s: %d ms, %s%n", level, millis, shown.length() > 160 ? shown.substring(0, 160) + "..." : shown);
        }
    }
}
