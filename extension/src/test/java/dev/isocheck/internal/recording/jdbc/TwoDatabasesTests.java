package dev.isocheck.internal.recording.jdbc;

import static dev.isocheck.internal.recording.jdbc.SoundnessWorkloads.query;
import static dev.isocheck.internal.recording.jdbc.SoundnessWorkloads.update;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A test whose transactions reach two databases with the same tables (two tenants, a test and a
 * reference database, parallel tests whose executors' work goes to both histories): each
 * database's rows are keys of their own, so that a transaction of one never seems to overwrite
 * the other's row; one database reached through two URLs stays one; where a URL names no
 * database, the tables it shares with a named one are left out, said so.
 */
class TwoDatabasesTests {

    private static DataSource[] postgres(boolean logical, String prefix) throws Throwable {
        PostgresDatabase server = logical ? PostgresDatabase.logical() : PostgresDatabase.get();
        DataSource[] databases = new DataSource[2];
        for (int i = 0; i < 2; i++) {
            String name = prefix + "_" + (char) ('a' + i);
            try (Connection c = server.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name);
            }
            databases[i] = server.database(name);
            counters(databases[i]);
        }
        return databases;
    }

    private static void counters(DataSource database) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)");
            s.execute("INSERT INTO counters VALUES (1, 0)");
        }
    }

    /** Reads counter 1 and sets it to {@code n}, in one transaction. */
    private static void set(Connection c, int n) throws SQLException {
        c.setAutoCommit(false);
        query(c, "SELECT n FROM counters WHERE id = 1");
        update(c, "UPDATE counters SET n = ? WHERE id = 1", n);
        c.commit();
    }

    /** Both read counter 1, then each writes it one higher at READ COMMITTED: the second's increment loses the first's. */
    private static void interleavedIncrements(Connection first, Connection second) throws SQLException {
        for (Connection c : new Connection[] {first, second}) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            query(c, "SELECT n FROM counters WHERE id = 1");
        }
        update(first, "UPDATE counters SET n = 1 WHERE id = 1");
        first.commit();
        update(second, "UPDATE counters SET n = 1 WHERE id = 1");
        second.commit();
    }

    @ParameterizedTest(name = "logical decoding: {0}")
    @ValueSource(booleans = {false, true})
    void theSameRowOfTwoDatabasesIsTwoKeys(boolean logical) throws Throwable {
        DataSource[] databases = postgres(logical, "two_databases_" + logical);
        Recording recording = new Recording("two databases");
        try (Recording.Binding ignored = recording.bind();
             Connection a = Isocheck.record(databases[0]).getConnection();
             Connection b = Isocheck.record(databases[1]).getConnection()) {
            // One after the other, each reading 0: one database's counter would have been 1 for the second.
            set(a, 1);
            set(b, 2);
        }
        RecordedHistory recorded = recording.finish();
        CheckResult result = Isocheck.check(recorded.history(), IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s", result.explanationText().orElse(result.verdict().toString())).isTrue();
        assertThat(recorded.history().transactions().get(1).toString()).contains("two_databases_" + logical + "_b:counters/1");
        assertThat(recorded.notModelled()).noneMatch(n -> n.leavesTableOut());
    }

    @Test
    void aLostUpdateInTheSecondDatabaseIsFoundThere() throws Throwable {
        DataSource[] databases = postgres(true, "two_databases_lost");
        Recording recording = new Recording("a lost update in the second database");
        try (Recording.Binding ignored = recording.bind()) {
            try (Connection a = Isocheck.record(databases[0]).getConnection()) {
                set(a, 5);
            }
            DataSource b = Isocheck.record(databases[1]);
            try (Connection first = b.getConnection(); Connection second = b.getConnection()) {
                interleavedIncrements(first, second);
            }
        }
        CheckResult result = Isocheck.check(recording.finish().history(), IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isViolated()).isTrue();
        assertThat(result.explanationText().orElseThrow()).contains("two_databases_lost_b:counters/1");
    }

    @Test
    void oneDatabaseThroughTwoUrlsIsOneDatabase() throws Throwable {
        PostgresDatabase server = PostgresDatabase.get();
        DataSource plain = postgres(false, "two_urls")[0];
        Recording recording = new Recording("two URLs");
        try (Recording.Binding ignored = recording.bind();
             Connection first = Isocheck.record(plain).getConnection();
             Connection second = DriverManager.getConnection("jdbc:isocheck:postgresql://127.0.0.1:" + server.port()
                     + "/two_urls_a?user=postgres")) {
            // A lost update across the two: found only if their rows are one key.
            interleavedIncrements(first, second);
        }
        RecordedHistory recorded = recording.finish();
        CheckResult result = Isocheck.check(recorded.history(), IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", recorded.history().transactions()).isTrue();
        assertThat(recorded.history().toString()).doesNotContain(":counters/");
    }

    @Test
    void twoH2DatabasesAreTwoToo() throws Throwable {
        Recording recording = new Recording("two H2 databases");
        try (Recording.Binding ignored = recording.bind();
             Connection a = Isocheck.record(h2("two_h2_a")).getConnection();
             Connection b = Isocheck.record(h2("two_h2_b")).getConnection()) {
            set(a, 1);
            set(b, 2);
        }
        RecordedHistory recorded = recording.finish();
        assertThat(Isocheck.check(recorded.history(), IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        assertThat(recorded.history().transactions().get(1).toString()).contains("two_h2_b:counters/1");
    }

    /**
     * A URL that names no database (the server's default) and one that names a database may be one
     * database or two: the tables both reach are left out, said so, and nothing is made up.
     */
    @Test
    void aUrlThatNamesNoDatabaseLeavesTheTablesItSharesWithANamedOneOut() throws Throwable {
        PostgresDatabase server = PostgresDatabase.get();
        try (Connection c = server.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS counters");
        }
        counters(server.dataSource());
        Recording recording = new Recording("a URL without a database");
        try (Recording.Binding ignored = recording.bind();
             Connection named = DriverManager.getConnection("jdbc:isocheck:postgresql://localhost:" + server.port()
                     + "/postgres?user=postgres");
             Connection unnamed = DriverManager.getConnection("jdbc:isocheck:postgresql://localhost:" + server.port()
                     + "/?user=postgres")) {
            interleavedIncrements(named, unnamed);
        } finally {
            try (Connection c = server.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE counters");
            }
        }
        RecordedHistory recorded = recording.finish();
        assertThat(Isocheck.check(recorded.history(), IsolationLevel.STRICT_SERIALIZABLE).isViolated()).isFalse();
        assertThat(recorded.notModelled()).anyMatch(n -> n.subject().equals("table counters")
                && n.reason().contains("names no database and one to database postgres"));
    }

    private static DataSource h2(String name) throws SQLException {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS counters");
        }
        counters(h2);
        return h2;
    }
}
