package dev.isocheck.bench;

import dev.isocheck.history.History;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.util.Arrays;

/**
 * Times {@link ReadExplanations#of} on a generated history of about 100k transactions and 2M
 * operations. Run it with
 * {@code java -cp bench/target/isocheck-bench.jar dev.isocheck.bench.ReadExplanationsBenchmark
 * [sessions [perSession [maxOps [partialRows]]]]} (transactions per session, maximum operations per
 * transaction, whether reads return partial rows; defaults 100, 1000, 39, true).
 */
public final class ReadExplanationsBenchmark {

    private ReadExplanationsBenchmark() {
    }

    /** Generates the history, then builds the explanations a few times and prints the timings. */
    public static void main(String[] args) {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int perSession = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int maxOps = args.length > 2 ? Integer.parseInt(args[2]) : 39;
        boolean partialRows = args.length <= 3 || Boolean.parseBoolean(args[3]);
        Workload workload = Workload.defaults().withSessions(sessions, perSession).withMaxOpsPerTransaction(maxOps)
                .withKeys(10_000, 2_000).withMix(6, 4, 1, 0).withValueDomain(0).withAbortProbability(0.05).withPartialRows(partialRows);
        long t0 = System.nanoTime();
        History history = new HistoryGenerator(workload, SimulatedDatabase.serial()).generate(42).history();
        long t1 = System.nanoTime();
        System.out.printf("generated %d transactions, %d operations in %d ms%n", history.size(),
                history.operationCount(), (t1 - t0) / 1_000_000);
        long[] millis = new long[7];
        int observations = 0;
        for (int run = 0; run < millis.length; run++) {
            long start = System.nanoTime();
            ReadExplanations explanations = ReadExplanations.of(history);
            millis[run] = (System.nanoTime() - start) / 1_000_000;
            observations = explanations.size();
        }
        long start = System.nanoTime();
        int anomalies = ReadAnomalies.find(history).size();
        long screening = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("ReadExplanations.of: %d observations; runs (ms) %s%n", observations, Arrays.toString(millis));
        System.out.printf("ReadAnomalies.find: %d anomalies in %d ms%n", anomalies, screening);
    }
}
