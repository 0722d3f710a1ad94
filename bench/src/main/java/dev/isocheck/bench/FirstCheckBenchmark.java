package dev.isocheck.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the first check in a JVM costs: {@code jvms} fresh JVMs, each running {@link FirstCheckRun}
 * once, which times the first check that JVM makes and a second one; prints each JVM's line and
 * the medians. A JUnit run pays the first check's cold start (class loading, a cold JIT) once, on
 * its first {@code @SerializableCheck} test; a warm JVM's figures are in
 * {@link ExtensionTimeBenchmark} and {@link EngineBenchmark}.
 *
 * <pre>
 * java -cp bench/target/isocheck-bench.jar dev.isocheck.bench.FirstCheckBenchmark api [JVMS [LEVEL [WORKLOAD|PATH [FORMAT]]]]
 * java -cp bench/target/isocheck-bench.jar dev.isocheck.bench.FirstCheckBenchmark junit [JVMS [TRANSACTIONS [KEY=VALUE...]]]
 * </pre>
 *
 * <p>{@code api}: the public API's first {@code Isocheck.check} (default 7 JVMs, serializable,
 * {@code blindw-rw-1000}). {@code junit}: a {@code @SerializableCheck} test through the JUnit
 * Platform launcher, its body 1,000 recorded transfers by default, against one embedded PostgreSQL
 * this program starts for all the JVMs; {@code KEY=VALUE} are the launcher's configuration
 * parameters ({@code isocheck.warmup=false}, say). JVM options for the children go in the system
 * property {@code children} ({@code -Dchildren="-XX:TieredStopAtLevel=1"}), split at blanks.
 */
public final class FirstCheckBenchmark {

    /** Accounts the JUnit body transfers between: many, so that SERIALIZABLE refuses few transfers. */
    static final int ACCOUNTS = 1000;

    private static final Pattern TIMES = Pattern.compile("^first (\\d+) second (\\d+)");

    private FirstCheckBenchmark() {
    }

    /** Runs the benchmark; arguments as in the class comment. */
    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "api";
        int jvms = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        System.out.printf("the first check in %d fresh JVMs (%s), %d cores, java %s%n", jvms, mode,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        if (mode.equals("api")) {
            List<String> child = new ArrayList<>(List.of("api", args.length > 2 ? args[2] : "serializable",
                    args.length > 3 ? args[3] : "blindw-rw-1000"));
            if (args.length > 4) {
                child.add(args[4]);
            }
            report(jvms, child);
        } else if (mode.equals("junit")) {
            int transactions = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
            try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
                RecordingBenchmark.createAccounts(postgres.getPostgresDatabase(), ACCOUNTS);
                List<String> child = new ArrayList<>(List.of("junit", postgres.getJdbcUrl("postgres", "postgres"),
                        Integer.toString(transactions)));
                child.addAll(Arrays.asList(args).subList(Math.min(3, args.length), args.length));
                report(jvms, child);
            }
        } else {
            throw new IllegalArgumentException("mode api or junit, not " + mode);
        }
    }

    /** Runs {@code jvms} children with {@code arguments}, prints their lines and the medians. */
    private static void report(int jvms, List<String> arguments) throws IOException, InterruptedException {
        long[] first = new long[jvms];
        long[] second = new long[jvms];
        for (int jvm = 0; jvm < jvms; jvm++) {
            String line = child(arguments);
            System.out.printf("  jvm %d: %s%n", jvm + 1, line);
            Matcher times = TIMES.matcher(line);
            if (!times.find()) {
                throw new IllegalStateException("unexpected output of a child: " + line);
            }
            first[jvm] = Long.parseLong(times.group(1));
            second[jvm] = Long.parseLong(times.group(2));
        }
        System.out.printf("median: first check %d ms, second check %d ms%n", median(first), median(second));
    }

    /** Runs one fresh JVM of {@link FirstCheckRun}; its last line of output. */
    private static String child(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String options = System.getProperty("children", "").strip();
        if (!options.isEmpty()) {
            command.addAll(Arrays.asList(options.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FirstCheckRun.class.getName()));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String last = "";
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                last = line.isBlank() ? last : line;
            }
        }
        int status = process.waitFor();
        if (status != 0) {
            throw new IllegalStateException("a child exited with status " + status + ": " + last);
        }
        return last;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
