package dev.isocheck.bench;

import dev.isocheck.Isocheck;
import dev.isocheck.internal.recording.Recording;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.util.SplittableRandom;
import javax.sql.DataSource;

/**
 * The recorder's own work, for a profiler to see: {@link RecordingBenchmark}'s transfer run over one
 * connection to embedded PostgreSQL, round after round, plain and recorded (or recorded only), each
 * round on a fresh table and into a fresh recording. Prints each round's client time and CPU per
 * transfer and the time the recording took to finish; the recorder's share of the client's work is
 * what a sampling profiler attached to it shows (see {@code docs/benchmarks.md}).
 *
 * <p>{@code java -cp bench/target/isocheck-bench.jar dev.isocheck.bench.RecordingCpuBenchmark
 * [transfers [rounds [recorded]]]} (default 20000 4; {@code recorded} skips the plain rounds).
 */
public final class RecordingCpuBenchmark {

    private RecordingCpuBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        int transfers = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        boolean onlyRecorded = args.length > 2 && args[2].equals("recorded");
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            DataSource plain = postgres.getPostgresDatabase();
            DataSource recorded = Isocheck.record(plain);
            for (int round = 0; round < rounds; round++) {
                for (int way = onlyRecorded ? 1 : 0; way < 2; way++) {
                    RecordingBenchmark.createAccounts(plain, 1000);
                    Recording recording = new Recording("RecordingCpuBenchmark");
                    long elapsed;
                    long cpuUsed;
                    try (Recording.Binding ignored = recording.bind();
                         Connection c = (way == 0 ? plain : recorded).getConnection()) {
                        c.setAutoCommit(false);
                        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                        SplittableRandom random = new SplittableRandom(round);
                        long begin = System.nanoTime();
                        long cpuBegin = cpu.getCurrentThreadCpuTime();
                        for (int n = 0; n < transfers; n++) {
                            RecordingBenchmark.transfer(c, random, 1000);
                        }
                        cpuUsed = cpu.getCurrentThreadCpuTime() - cpuBegin;
                        elapsed = System.nanoTime() - begin;
                    }
                    long finishBegin = System.nanoTime();
                    int kept = recording.finish().history().size();
                    long finish = System.nanoTime() - finishBegin;
                    System.out.printf("round %d %s: %.1f us/tx wall, %.1f us/tx cpu, finish %.1f us/tx (%d tx)%n", round,
                            way == 0 ? "plain   " : "recorded", elapsed / 1e3 / transfers, cpuUsed / 1e3 / transfers,
                            finish / 1e3 / transfers, kept);
                }
            }
        }
    }
}
