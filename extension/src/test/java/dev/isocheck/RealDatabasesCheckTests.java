package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.isocheck.internal.recording.jdbc.PostgresDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * {@code @SerializableCheck} on the textbook write skew, checked by counting the doctors on call,
 * on real databases: where the database lets it commit, the test fails naming the anomaly; where
 * it does not (PostgreSQL at SERIALIZABLE, HSQLDB with locks), the test passes.
 */
class RealDatabasesCheckTests {

    @TempDir
    Path reports;

    @Test
    void aWriteSkewOverACountCommitsOnH2AndIsCaught() {
        assertCaught(H2CountTestCase.class);
    }

    @Test
    void aWriteSkewOverACountCommitsOnPostgresAtRepeatableReadAndIsCaught() {
        assertCaught(PostgresCountTestCase.class);
    }

    @Test
    void postgresAtSerializableLetsOnlyOneGoOffCallAndTheTestPasses() {
        assertPasses(PostgresSerializableTestCase.class);
    }

    @Test
    void hsqldbInMvccModeLetsTheWriteSkewCommitAndItIsCaught() {
        assertCaught(HsqldbMvccTestCase.class);
    }

    @Test
    void hsqldbInLocksModeLetsOnlyOneGoOffCallAndTheTestPasses() {
        assertPasses(HsqldbLocksTestCase.class);
    }

    private void assertCaught(Class<?> testCase) {
        EngineExecutionResults results = run(testCase);
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(1);
        Throwable failure = failed.get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        assertThat(failure.getMessage()).contains("doctors/alice").contains("doctors/bob").doesNotContain("not modelled");
    }

    private void assertPasses(Class<?> testCase) {
        EngineExecutionResults results = run(testCase);
        assertThat(results.testEvents().failed().list()).extracting(e -> e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable().map(Throwable::toString).orElse("")).isEmpty();
        assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
    }

    private EngineExecutionResults run(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute();
    }

    private static final String COUNT = "SELECT count(*) FROM doctors WHERE on_call = TRUE";
    /** HSQLDB has no ordered array aggregate: the rows are counted by the application. */
    private static final String ROWS = "SELECT name FROM doctors WHERE on_call = TRUE";

    static DataSource h2(String name) {
        org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return h2;
    }

    static DataSource postgres(String name) {
        try {
            PostgresDatabase server = PostgresDatabase.get();
            try (Connection c = server.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name);
            }
            return server.database(name);
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    static DataSource hsqldb(String name, String control) {
        org.hsqldb.jdbc.JDBCDataSource ds = new org.hsqldb.jdbc.JDBCDataSource();
        ds.setUrl("jdbc:hsqldb:mem:" + name);
        ds.setUser("SA");
        ds.setPassword("");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("SET DATABASE TRANSACTION CONTROL " + control);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return ds;
    }

    @SerializableCheck
    static class H2CountTestCase {

        final OnCallRota rota = new OnCallRota(h2("rota-count"), Connection.TRANSACTION_REPEATABLE_READ, COUNT);

        @Test
        void bothGoOffCall() throws Exception {
            assertThat(rota.bothGoOffCall()).isZero();
        }
    }

    @SerializableCheck
    static class PostgresCountTestCase {

        final OnCallRota rota = new OnCallRota(postgres("rota_count"), Connection.TRANSACTION_REPEATABLE_READ, COUNT);

        @Test
        void bothGoOffCall() throws Exception {
            assertThat(rota.bothGoOffCall()).isZero();
        }
    }

    @SerializableCheck
    static class PostgresSerializableTestCase {

        final OnCallRota rota = new OnCallRota(postgres("rota_serializable"), Connection.TRANSACTION_SERIALIZABLE, COUNT);

        @Test
        void onlyOneGoesOffCall() throws Exception {
            assertThat(rota.bothGoOffCall()).isEqualTo(1);
        }
    }

    @SerializableCheck
    static class HsqldbMvccTestCase {

        final OnCallRota rota = new OnCallRota(hsqldb("rota-mvcc", "MVCC"), Connection.TRANSACTION_REPEATABLE_READ, ROWS);

        @Test
        void bothGoOffCall() throws Exception {
            assertThat(rota.bothGoOffCall()).isZero();
        }
    }

    @SerializableCheck
    static class HsqldbLocksTestCase {

        final OnCallRota rota = new OnCallRota(hsqldb("rota-locks", "LOCKS"), Connection.TRANSACTION_SERIALIZABLE, ROWS);

        @Test
        void onlyOneGoesOffCall() throws Exception {
            assertThat(rota.bothGoOffCall()).isEqualTo(1);
        }
    }
}
