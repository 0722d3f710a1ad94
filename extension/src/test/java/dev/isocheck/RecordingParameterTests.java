package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.recording.jdbc.PostgresDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

/**
 * The {@link Recording} a test takes as a parameter, through JUnit's own engine: the fixture
 * classes below are run by {@link EngineTestKit}, and their assertions are what is tested.
 */
@DisplayName("Recording, a test's parameter")
class RecordingParameterTests {

    @TempDir
    Path reports;

    @Test
    void theHistorySoFarHoldsTheFinishedTransactionsAndTheCheckAfterTheBodyStillSeesThemAll() {
        EngineExecutionResults results = run(HistorySoFarTestCase.class);

        passed(results);
        assertThat(HistorySoFarTestCase.SIZES).containsExactly(1, 2);
    }

    @Test
    void aSliceKeepsTheWritesOfEarlierTransactionsSoThatReadsOfThemAreNotTakenForImpossible() {
        EngineExecutionResults results = run(SliceTestCase.class);

        passed(results);
        History slice = SliceTestCase.SLICE.get();
        // The transaction open at the mark wrote what the second read saw; its own read is gone.
        assertThat(slice.size()).isEqualTo(4);
        Transaction open = slice.transactions().get(2);
        assertThat(kinds(open)).containsOnly(OpKind.WRITE);
        // Without that write, the slice's two reads of key 1 would be two initial values.
        assertThat(Isocheck.check(withoutWriter(slice), IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
    }

    @Test
    void aSliceAssertedAtAnotherLevelShowsTheAnomalyWhileTheTestsOwnLevelPasses() {
        EngineExecutionResults results = run(WriteSkewAfterTheMarkTestCase.class);

        passed(results);
    }

    @Test
    void checkingNowAtTheTestsLevelShowsTheViolationTheCheckAfterTheBodyFailsWith() {
        Throwable failure = onlyFailure(run(CheckNowTestCase.class));

        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        assertThat(CheckNowTestCase.RESULT.get().isViolated()).isTrue();
        assertThat(CheckNowTestCase.RESULT.get().level()).isEqualTo(IsolationLevel.SERIALIZABLE);
        assertThat(CheckNowTestCase.RESULT.get().showsAnomaly("write skew")).isTrue();
    }

    @Test
    void aMarkMadeInBeforeEachSlicesTheTestAndAfterEachSeesTheHistoryTheCheckSaw() {
        EngineExecutionResults results = run(AroundTheBodyTestCase.class);

        passed(results);
        assertThat(AroundTheBodyTestCase.AFTER_EACH.get().size()).isEqualTo(2);
    }

    @Test
    void whatWasLeftOutFailsHasNothingLeftOutNamingItInAssertJAndHamcrest() {
        EngineExecutionResults results = run(LeftOutTestCase.class);

        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(2);
        assertThat(failed).map(RecordingParameterTests::throwable).allSatisfy(t -> assertThat(t)
                .isInstanceOf(AssertionError.class).hasMessageContaining("left out").hasMessageContaining("every table"));
        assertThat(failed).map(RecordingParameterTests::throwable).anySatisfy(t -> assertThat(t)
                .hasMessageContaining("Expected: a recording that left nothing out of the check"));
        assertThat(LeftOutTestCase.LEFT_OUT.get()).singleElement().asString().startsWith("every table");
    }

    @Test
    void aRecordingThatLeftNothingOutPassesHasNothingLeftOut() {
        run(HistorySoFarTestCase.class).testEvents().assertStatistics(stats -> stats.succeeded(1));
    }

    @Test
    void aMarkOfAnotherTestsRecordingIsRefused() {
        Throwable failure = onlyFailure(run(ForeignMarkTestCase.class));

        assertThat(failure).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was not made by the recording of");
    }

    @Test
    void aConstructorOrBeforeAllMethodCannotTakeTheRecordingAndIsToldWhere() {
        Throwable constructor = onlyFailure(run(ConstructorTestCase.class));
        assertThat(constructor).isInstanceOf(ParameterResolutionException.class)
                .hasMessageContaining("belongs on a test method, or on a @BeforeEach or @AfterEach method");

        EngineExecutionResults beforeAll = run(BeforeAllTestCase.class);
        assertThat(beforeAll.containerEvents().failed().list()).singleElement().satisfies(e -> assertThat(throwable(e))
                .isInstanceOf(ParameterResolutionException.class).hasMessageContaining("belongs on a test method"));
    }

    @Test
    void parameterizedAndRepeatedTestsTakeTheRecordingAfterTheirArgumentsEachInvocationItsOwn() {
        EngineExecutionResults results = run(TemplatesTestCase.class);

        assertThat(results.testEvents().failed().list()).map(RecordingParameterTests::throwable).isEmpty();
        results.testEvents().assertStatistics(stats -> stats.succeeded(4));
        // Each invocation saw only its own transaction.
        assertThat(TemplatesTestCase.SIZES).containsExactly(1, 1, 1, 1);
    }

    @Test
    void withLogicalDecodingTheHistorySoFarPeeksAtTheSlotAndTheCheckAfterTheBodyStillReadsIt() {
        EngineExecutionResults results = run(LogicalDecodingTestCase.class);

        // The lost update comes after the look: the check after the body still has the log's writes.
        Throwable failure = onlyFailure(results);
        assertThat(failure).isInstanceOf(IsolationViolationError.class).hasMessageContaining("lost update")
                .hasMessageContaining("logical decoding");
        History soFar = LogicalDecodingTestCase.SO_FAR.get();
        assertThat(soFar.size()).isEqualTo(1);
        // The counter's read, the read of its row present (the UPDATE's, from the log), the write.
        assertThat(kinds(soFar.transactions().get(0))).containsExactly(OpKind.READ, OpKind.READ, OpKind.WRITE);
    }

    @Test
    void withLogicalDecodingLookingWhileTheTestHoldsATableLockDoesNotHang() {
        EngineExecutionResults results = run(LockHeldTestCase.class);

        // The look waits a few seconds, then says why it has nothing: every table left out.
        assertThat(LockHeldTestCase.LEFT_OUT.get()).singleElement().asString().startsWith("every table")
                .contains("locked by a transaction still open");
        // The check after the body, the lock released, reads the log whole.
        Throwable failure = onlyFailure(results);
        assertThat(failure).isInstanceOf(IsolationViolationError.class).hasMessageContaining("lost update");
    }

    private EngineExecutionResults run(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute();
    }

    /** Asserts that the one test of {@code results} passed, showing its failure when it did not. */
    private static void passed(EngineExecutionResults results) {
        assertThat(results.testEvents().failed().list()).map(RecordingParameterTests::throwable)
                .withFailMessage(() -> "the fixture failed: " + results.testEvents().failed().list().stream()
                        .map(e -> throwable(e).toString()).toList()).isEmpty();
        results.testEvents().assertStatistics(stats -> stats.succeeded(1));
    }

    private static Throwable onlyFailure(EngineExecutionResults results) {
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(1);
        return throwable(failed.get(0));
    }

    /** The kinds of {@code t}'s operations, in order. */
    static List<OpKind> kinds(Transaction t) {
        return java.util.stream.IntStream.range(0, t.size()).mapToObj(t::kind).toList();
    }

    private static Throwable throwable(Event event) {
        return event.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    /** {@code history} without its transactions that only wrote. */
    private static History withoutWriter(History history) {
        dev.isocheck.history.HistoryBuilder builder = History.builder()
                .unknownInitialValues(dev.isocheck.history.UnknownInitialValues.ANY);
        for (Transaction t : history.transactions()) {
            if (kinds(t).contains(OpKind.READ)) {
                var copy = builder.transaction(t.id());
                for (int i = 0; i < t.size(); i++) {
                    String key = history.keys().name(t.key(i));
                    dev.isocheck.history.Value value = history.values().get(t.value(i));
                    if (t.kind(i) == OpKind.READ) {
                        copy.read(key, value);
                    } else {
                        copy.write(key, value);
                    }
                }
            }
        }
        return builder.build();
    }

    /**
     * Rows {@code (k, n)} in a database of their own, reached through a recorded {@link DataSource};
     * setting them up is not recorded.
     */
    static final class Counters {

        private static final AtomicInteger DATABASES = new AtomicInteger();

        final DataSource recorded;

        /** Two counters, 1 and 2, at 0, in a fresh H2 database. */
        Counters() {
            org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
            h2.setURL("jdbc:h2:mem:counters-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
            this.recorded = Isocheck.record(setUp(h2, "counters"));
        }

        /** Two counters, 1 and 2, at 0, in a table of its own in {@code database}. */
        Counters(DataSource database, String table) {
            this.recorded = Isocheck.record(setUp(database, table));
            this.table = table;
        }

        private String table = "counters";

        private static DataSource setUp(DataSource database, String table) {
            try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
                s.execute("CREATE TABLE " + table + " (k INT PRIMARY KEY, n INT NOT NULL)");
                s.execute("INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return database;
        }

        /** A connection with auto-commit off: a transaction begins. */
        Connection begin() throws SQLException {
            Connection c = recorded.getConnection();
            c.setAutoCommit(false);
            return c;
        }

        int read(Connection c, int k) throws SQLException {
            try (PreparedStatement select = c.prepareStatement("SELECT n FROM " + table + " WHERE k = ?")) {
                select.setInt(1, k);
                try (ResultSet rs = select.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        }

        void write(Connection c, int k, int n) throws SQLException {
            try (PreparedStatement update = c.prepareStatement("UPDATE " + table + " SET n = ? WHERE k = ?")) {
                update.setInt(1, n);
                update.setInt(2, k);
                update.executeUpdate();
            }
        }

        /** Sets counter {@code k} to {@code n} in a transaction of its own. */
        void set(int k, int n) throws SQLException {
            try (Connection c = begin()) {
                write(c, k, n);
                c.commit();
            }
        }

        /** Reads counter {@code k} in a transaction of its own. */
        int get(int k) throws SQLException {
            try (Connection c = begin()) {
                int n = read(c, k);
                c.commit();
                return n;
            }
        }

        /** Adds one to counter {@code k} in a transaction of its own, after {@code between} ran between the read and the write. */
        void increment(int k, Runnable between) throws SQLException {
            try (Connection c = begin()) {
                int n = read(c, k);
                between.run();
                write(c, k, n + 1);
                c.commit();
            }
        }

        /**
         * Each of two transactions reads both counters and, seeing their sum at 0, sets its own to
         * 1: both read before either writes (write skew).
         */
        void writeSkew() throws SQLException {
            try (Connection first = begin(); Connection second = begin()) {
                int sumSeenByFirst = read(first, 1) + read(first, 2);
                int sumSeenBySecond = read(second, 1) + read(second, 2);
                if (sumSeenByFirst == 0) {
                    write(first, 1, 1);
                }
                first.commit();
                if (sumSeenBySecond == 0) {
                    write(second, 2, 1);
                }
                second.commit();
            }
        }
    }

    @SerializableCheck
    static class HistorySoFarTestCase {

        static final List<Integer> SIZES = new java.util.concurrent.CopyOnWriteArrayList<>();

        final Counters counters = new Counters();

        @Test
        void twoTransactions(Recording recording) throws SQLException {
            SIZES.clear();
            counters.set(1, 5);
            SIZES.add(recording.history().size());
            assertThat(counters.get(1)).isEqualTo(5);
            SIZES.add(recording.history().size());
            dev.isocheck.assertj.IsocheckAssertions.assertThat(recording).isSerializable().hasNothingLeftOut();
            org.hamcrest.MatcherAssert.assertThat(recording, dev.isocheck.hamcrest.IsocheckMatchers.hasNothingLeftOut());
            assertThat(recording.level()).isEqualTo(IsolationLevel.SERIALIZABLE);
            assertThat(recording.testName()).contains("twoTransactions");
        }
    }

    /**
     * A transaction open at the mark writes counter 1 after a read of the slice saw its old value
     * and before another saw the new one.
     */
    @SerializableCheck
    static class SliceTestCase {

        static final AtomicReference<History> SLICE = new AtomicReference<>();

        final Counters counters = new Counters();

        @Test
        void openAcrossTheMark(Recording recording) throws SQLException {
            counters.set(1, 1);
            try (Connection open = counters.begin()) {
                counters.read(open, 2);
                Recording.Mark mark = recording.mark();
                counters.write(open, 1, 2);
                assertThat(counters.get(1)).isEqualTo(1);
                open.commit();
                assertThat(counters.get(1)).isEqualTo(2);
                SLICE.set(recording.since(mark));
            }
            dev.isocheck.assertj.IsocheckAssertions.assertThat(SLICE.get()).isSerializable();
        }
    }

    /** The test runs at snapshot isolation; its slice after a first look shows write skew at serializable. */
    @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
    static class WriteSkewAfterTheMarkTestCase {

        final Counters counters = new Counters();

        @Test
        void writeSkewInTheSecondPhase(Recording recording) throws SQLException {
            assertThat(counters.get(1) + counters.get(2)).isZero();
            Recording.Mark concurrent = recording.mark();
            counters.writeSkew();
            History slice = recording.since(concurrent);
            dev.isocheck.assertj.IsocheckAssertions.assertThat(slice).satisfies(IsolationLevel.SNAPSHOT_ISOLATION)
                    .violates(IsolationLevel.SERIALIZABLE).hasAnomaly("write skew");
            org.hamcrest.MatcherAssert.assertThat(slice, dev.isocheck.hamcrest.IsocheckMatchers
                    .hasAnomaly(IsolationLevel.SERIALIZABLE, "write skew"));
            // The first phase's two transactions are in the slice without their reads.
            assertThat(slice.size()).isEqualTo(4);
            assertThat(slice.transactions().get(0).size()).isZero();
            assertThat(recording.check().isSatisfied()).isTrue();
        }
    }

    @SerializableCheck
    static class CheckNowTestCase {

        static final AtomicReference<CheckResult> RESULT = new AtomicReference<>();

        final Counters counters = new Counters();

        @Test
        void writeSkew(Recording recording) throws SQLException {
            counters.writeSkew();
            RESULT.set(recording.check());
        }
    }

    @SerializableCheck
    static class AroundTheBodyTestCase {

        static final AtomicReference<History> AFTER_EACH = new AtomicReference<>();

        final Counters counters = new Counters();
        Recording.Mark afterSetUp;

        @BeforeEach
        void setUp(Recording recording) throws SQLException {
            counters.set(1, 7);
            afterSetUp = recording.mark();
        }

        @Test
        void body(Recording recording) throws SQLException {
            assertThat(counters.get(1)).isEqualTo(7);
            History slice = recording.since(afterSetUp);
            assertThat(kinds(slice.transactions().get(0))).containsExactly(OpKind.WRITE);
            assertThat(kinds(slice.transactions().get(1))).containsExactly(OpKind.READ);
        }

        @AfterEach
        void tearDown(Recording recording) {
            AFTER_EACH.set(recording.history());
        }
    }

    /** A statement string of two statements leaves every table out. */
    @SerializableCheck
    static class LeftOutTestCase {

        static final AtomicReference<List<String>> LEFT_OUT = new AtomicReference<>();

        final Counters counters = new Counters();

        @Test
        void assertJ(Recording recording) throws SQLException {
            twoStatementsInOne();
            LEFT_OUT.set(recording.leftOut());
            dev.isocheck.assertj.IsocheckAssertions.assertThat(recording).hasNothingLeftOut();
        }

        @Test
        void hamcrest(Recording recording) throws SQLException {
            twoStatementsInOne();
            org.hamcrest.MatcherAssert.assertThat(recording, dev.isocheck.hamcrest.IsocheckMatchers.hasNothingLeftOut());
        }

        private void twoStatementsInOne() throws SQLException {
            try (Connection c = counters.recorded.getConnection(); Statement s = c.createStatement()) {
                s.execute("UPDATE counters SET n = 1 WHERE k = 1; UPDATE counters SET n = 1 WHERE k = 2");
            }
        }
    }

    /** The second test takes the first one's mark. */
    @SerializableCheck
    @org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
    static class ForeignMarkTestCase {

        static Recording.Mark earlier;

        @Test
        @org.junit.jupiter.api.Order(1)
        void makesAMark(Recording recording) {
            earlier = recording.mark();
        }

        @Test
        @org.junit.jupiter.api.Order(2)
        void takesTheOtherTestsMark(Recording recording) {
            recording.since(earlier);
        }
    }

    @SerializableCheck
    static class ConstructorTestCase {

        ConstructorTestCase(Recording recording) {
        }

        @Test
        void nothing() {
        }
    }

    @SerializableCheck
    static class BeforeAllTestCase {

        @BeforeAll
        static void setUp(Recording recording) {
        }

        @Test
        void nothing() {
        }
    }

    /** The annotation on the methods only, the recording taken after a template's arguments and in @BeforeEach. */
    static class TemplatesTestCase {

        static final List<Integer> SIZES = new java.util.concurrent.CopyOnWriteArrayList<>();

        final Counters counters = new Counters();

        @BeforeEach
        void noneYet(Recording recording) {
            assertThat(recording.history().size()).isZero();
        }

        @org.junit.jupiter.params.ParameterizedTest
        @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
        @SerializableCheck
        void parameterized(int n, Recording recording) throws SQLException {
            counters.set(1, n);
            SIZES.add(recording.history().size());
        }

        @org.junit.jupiter.api.RepeatedTest(2)
        @SerializableCheck
        void repeated(org.junit.jupiter.api.RepetitionInfo repetition, Recording recording) throws SQLException {
            counters.set(2, repetition.getCurrentRepetition());
            SIZES.add(recording.history().size());
        }
    }

    /** A look at the history while an open transaction of the test holds the table locked. */
    @SerializableCheck
    static class LockHeldTestCase {

        static final AtomicReference<List<String>> LEFT_OUT = new AtomicReference<>();

        final Counters counters;

        LockHeldTestCase() throws Throwable {
            counters = new Counters(PostgresDatabase.logical().dataSource(), "recording_parameter_locked");
        }

        @Test
        void lookWhileLocked(Recording recording) throws Exception {
            // Committed, so the look has a row of the locked table to read back.
            counters.set(2, 5);
            try (Connection locking = counters.begin(); Statement s = locking.createStatement()) {
                s.execute("LOCK TABLE recording_parameter_locked IN ACCESS EXCLUSIVE MODE");
                counters.write(locking, 2, 2);
                LEFT_OUT.set(recording.leftOut());
                locking.commit();
            }
            // A lost update after the look, for the check after the body to find.
            counters.increment(1, () -> {
                try {
                    counters.increment(1, () -> { });
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /**
     * On PostgreSQL with logical decoding: a look at the history after one transaction, then a
     * lost update the check after the body must still find in the log.
     */
    @SerializableCheck
    static class LogicalDecodingTestCase {

        static final AtomicReference<History> SO_FAR = new AtomicReference<>();

        final Counters counters;

        LogicalDecodingTestCase() throws Throwable {
            counters = new Counters(PostgresDatabase.logical().dataSource(), "recording_parameter_counters");
        }

        @Test
        void lostUpdateAfterALook(Recording recording) throws Exception {
            counters.increment(1, () -> { });
            SO_FAR.set(recording.history());
            counters.increment(2, () -> {
                try {
                    counters.increment(2, () -> { });
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }
}
