package dev.isocheck.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How reliably exploration finds each example's anomaly, and how reliably the level that
 * prevents it passes, measured: each example's anomaly fixture is run {@value #DEFAULT_RUNS}
 * times through EngineTestKit with the default budget (20 schedules), and each test at the
 * preventing level {@value #DEFAULT_PREVENTING_RUNS} times with the full budget. Prints, per
 * fixture, in how many runs the anomaly was found and in which schedule (median, max), and
 * asserts the bar: found in at least 99 of 100 runs, and every schedule of every run
 * passing at the preventing level.
 *
 * <p>Minutes of work, so not in the build (tag {@code reliability}, excluded by the examples'
 * pom); run it with
 * {@code mvn -B -ntp test -pl examples -am -Dgroups=reliability -Dtest=ExamplesReliabilityTests -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dreliability.runs=N} and {@code -Dreliability.preventingRuns=N} change the counts,
 * {@code -Dreliability.only=H2} keeps the examples whose name contains {@code H2}).
 */
@Tag("reliability")
class ExamplesReliabilityTests {

    private static final int DEFAULT_RUNS = 100;
    private static final int DEFAULT_PREVENTING_RUNS = 10;
    private static final int RUNS = Integer.getInteger("reliability.runs", DEFAULT_RUNS);
    private static final int PREVENTING_RUNS = Integer.getInteger("reliability.preventingRuns", DEFAULT_PREVENTING_RUNS);
    /** Only the examples whose name contains this ({@code -Dreliability.only=H2}), when given. */
    private static final String ONLY = System.getProperty("reliability.only", "");
    private static final int BUDGET = 20;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bank: write skew at READ COMMITTED            | bank.BankAnomalyTests$PaymentsAtOnce           | atReadCommitted
            bank: write skew at REPEATABLE READ           | bank.BankAnomalyTests$PaymentsAtOnce           | atRepeatableRead
            rota: write skew at READ COMMITTED            | rota.RotaAnomalyTests$GoingOffCallAtOnce       | atReadCommitted
            rota: write skew at REPEATABLE READ           | rota.RotaAnomalyTests$GoingOffCallAtOnce       | atRepeatableRead
            rota by URL: write skew at REPEATABLE READ    | rota.RotaByUrlTests$ConfiguredByUrl            | atRepeatableRead
            inventory: lost update at READ COMMITTED      | inventory.InventoryAnomalyTests$OrdersAtOnce   | onPostgresAtReadCommitted
            inventory on H2: lost update at READ COMMITTED | inventory.InventoryAnomalyTests$OrdersAtOnce  | onH2AtReadCommitted
            hotel: phantom at REPEATABLE READ             | hotel.HotelAnomalyTests$BookingAtOnce          | atRepeatableRead
            tickets: phantom at READ COMMITTED            | tickets.BoxOfficeAnomalyTests$FansAtOnce       | atReadCommitted
            tickets: phantom at REPEATABLE READ           | tickets.BoxOfficeAnomalyTests$FansAtOnce       | atRepeatableRead
            """)
    void theAnomalyIsFoundWithinTheDefaultBudget(String example, String fixture, String method, @TempDir Path reports)
            throws Exception {
        assumeTrue(example.contains(ONLY), "only " + ONLY);
        Class<?> fixtureClass = Class.forName("dev.isocheck.examples." + fixture);
        List<Integer> foundIn = new ArrayList<>();
        List<String> notFirst = new ArrayList<>();
        long started = System.nanoTime();
        for (int run = 1; run <= RUNS; run++) {
            ExploredRuns runs = ExploredRuns.of(fixtureClass, method, fresh(reports, run));
            OptionalInt schedule = runs.firstViolatingSchedule();
            if (schedule.isPresent()) {
                foundIn.add(schedule.getAsInt());
            }
            if (schedule.orElse(0) != 1) {
                // What the schedules before the anomaly (or without one) did.
                notFirst.add("run " + run + ": " + String.join("\n      ", runs.describe().subList(0,
                        Math.min(runs.finished().size(), schedule.orElse(runs.finished().size())))));
            }
        }
        Collections.sort(foundIn);
        String line = String.format(Locale.ROOT, "reliability | %-46s | found in %3d of %3d runs within %d schedules | schedule median %s, max %s | %.0f s",
                example, foundIn.size(), RUNS, BUDGET, foundIn.isEmpty() ? "-" : foundIn.get((foundIn.size() - 1) / 2),
                foundIn.isEmpty() ? "-" : foundIn.get(foundIn.size() - 1), (System.nanoTime() - started) / 1e9);
        System.out.println(line);
        notFirst.stream().limit(10).forEach(m -> System.out.println("reliability |   not in the first schedule, " + m));
        if (!foundIn.isEmpty()) {
            System.out.println("reliability |   schedules: " + foundIn.stream().collect(Collectors.groupingBy(n -> n, java.util.TreeMap::new,
                    Collectors.counting())));
        }
        assertThat(foundIn.size() * 100).as(line).isGreaterThanOrEqualTo(99 * RUNS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bank at SERIALIZABLE              | bank.BankTests           | atSerializableTheOverdraftRuleHoldsAndOnePaymentIsRefused
            rota at SERIALIZABLE              | rota.RotaTests           | atSerializableSomeoneStaysOnCall
            inventory at REPEATABLE READ      | inventory.InventoryTests | atRepeatableReadBothOrdersCount
            hotel at SERIALIZABLE             | hotel.HotelTests         | atSerializableTheRoomIsBookedOnce
            tickets at SERIALIZABLE           | tickets.BoxOfficeTests   | atSerializableTheLastSeatIsSoldOnce
            """)
    void thePreventingLevelPassesEverySchedule(String example, String test, String method, @TempDir Path reports)
            throws Exception {
        assumeTrue(example.contains(ONLY), "only " + ONLY);
        Class<?> testClass = Class.forName("dev.isocheck.examples." + test);
        int passed = 0;
        int schedules = 0;
        List<String> failed = new ArrayList<>();
        long started = System.nanoTime();
        for (int run = 1; run <= PREVENTING_RUNS; run++) {
            ExploredRuns runs = ExploredRuns.of(testClass, method, fresh(reports, run), Map.of("isocheck.schedules", String.valueOf(BUDGET)));
            schedules += runs.finished().size();
            passed += runs.succeeded();
            runs.firstNotSucceeded().ifPresent(e -> failed.add(e.getTestDescriptor().getDisplayName() + ": "
                    + e.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable()
                    .map(t -> t.toString().lines().findFirst().orElse("")).orElse("")));
        }
        String line = String.format(Locale.ROOT, "reliability | %-46s | %d of %d schedules passed in %d runs of %d | %.0f s",
                example, passed, schedules, PREVENTING_RUNS, BUDGET, (System.nanoTime() - started) / 1e9);
        System.out.println(line);
        failed.stream().limit(5).forEach(f -> System.out.println("reliability |   failed " + f));
        assertThat(failed).as(line).isEmpty();
        assertThat(schedules).as(line).isEqualTo(PREVENTING_RUNS * BUDGET);
    }

    private static Path fresh(Path reports, int run) throws IOException {
        return Files.createDirectories(reports.resolve("run-" + run));
    }
}
