package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The recorder on H2 in memory. */
class H2RecorderTests extends RecorderScenarios {

    private final TestDatabase database = () -> {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:recorder;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return ds;
    };

    @Override
    TestDatabase database() {
        return database;
    }

    @Override
    int weakIsolation() {
        // H2's REPEATABLE READ is snapshot isolation: write skew commits.
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    static DataSource h2(String name) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return ds;
    }

    /**
     * In a database that compares strings ignoring case, {@code name = 'bob'} finds Bob; a checker
     * comparing byte for byte would blame the read for a row its WHERE does not select. The
     * recorder reads the collation and keeps only the rows returned.
     */
    @ParameterizedTest
    @ValueSource(strings = {"SET IGNORECASE TRUE", "SET COLLATION ENGLISH STRENGTH PRIMARY"})
    void stringsInACaseInsensitiveDatabaseMakeNoPredicateRead(String setting) throws Exception {
        DataSource plain = h2("case_insensitive_" + setting.hashCode());
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS people");
            s.execute(setting);
            s.execute("CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(20))");
            s.execute("INSERT INTO people VALUES (1, 'Bob')");
        }
        RecordedHistory recorded = RecordedRun.record("case insensitive", plain, ds -> {
            try (Connection c = ds.getConnection()) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM people WHERE name = 'bob'")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
                try (PreparedStatement s = c.prepareStatement("SELECT id FROM people WHERE name = ?")) {
                    s.setString(1, "BOB");
                    assertThat(drain(s.executeQuery())).isEqualTo(1);
                }
            }
        });

        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .noneMatch(t -> t.contains("predicate("))
                .anyMatch(t -> t.contains("r(people/1"));
        assertThat(recorded.notModelled()).hasSize(2)
                .allSatisfy(n -> assertThat(n.reason()).contains("cannot compare column name"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * Code that quotes identifiers as H2 spells them (jOOQ's {@code "PUBLIC"."DOCTORS"."ON_CALL"})
     * names the row's lower-case columns: the predicate is recorded in their names, so that the
     * checker reads the same fields the database compared.
     */
    @org.junit.jupiter.api.Test
    void quotedUpperCaseColumnsAreTheRowsColumns() throws Exception {
        RecordedHistory recorded = RecordedRun.record("quoted", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(drain(s.executeQuery("SELECT \"DOCTORS\".\"NAME\" FROM \"PUBLIC\".\"DOCTORS\""
                        + " WHERE \"DOCTORS\".\"ON_CALL\" = TRUE AND \"ID\" > 1"))).isEqualTo(1);
            }
        });

        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: predicate(doctors where on_call = true AND id > 1) -> [doctors/2={\"id\":2,\"name\":\"bob\",\"on_call\":true}]");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /** H2 cannot return a MERGE's deleted rows with the rest: the MERGE leaves its table out, and says so. */
    @org.junit.jupiter.api.Test
    void aMergeLeavesItsTableOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("merge", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("MERGE INTO counters t USING (VALUES (1, 5)) AS src (id, n) ON t.id = src.id"
                        + " WHEN MATCHED THEN UPDATE SET n = src.n")).isEqualTo(1);
                assertThat(drain(s.executeQuery("SELECT * FROM counters WHERE id = 1"))).isEqualTo(1);
            }
        });

        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).startsWith("table counters");
            assertThat(n.reason()).contains("MERGE");
        });
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly("T1: ", "T2: ");
    }
}
