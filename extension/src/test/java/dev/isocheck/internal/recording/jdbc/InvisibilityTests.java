package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The recorder is invisible: one workload, 64 threads, run on a plain and on a recorded data source
 * of two databases of the same kind, observes the same things, thread by thread. And what was
 * recorded, disjoint rows per thread, passes the check.
 */
class InvisibilityTests {

    @Test
    void h2SeesNoDifference() throws Exception {
        compare(H2RecorderTests.h2("invisible-plain"), H2RecorderTests.h2("invisible-recorded"), false);
    }

    @Test
    void hsqldbSeesNoDifference() throws Exception {
        // Writes are sent unchanged, asking for every column as generated keys.
        compare(hsqldb("invisible-plain"), hsqldb("invisible-recorded"), false);
    }

    static DataSource hsqldb(String name) {
        org.hsqldb.jdbc.JDBCDataSource ds = new org.hsqldb.jdbc.JDBCDataSource();
        ds.setUrl("jdbc:hsqldb:mem:" + name + ";hsqldb.tx=mvcc");
        ds.setUser("SA");
        ds.setPassword("");
        return ds;
    }

    @Test
    void postgresSeesNoDifference() throws Throwable {
        DataSource server = PostgresDatabase.get().dataSource();
        try (Connection c = server.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS invisible_plain");
            s.execute("DROP DATABASE IF EXISTS invisible_recorded");
            s.execute("CREATE DATABASE invisible_plain");
            s.execute("CREATE DATABASE invisible_recorded");
        }
        compare(PostgresDatabase.get().database("invisible_plain"), PostgresDatabase.get().database("invisible_recorded"), true);
    }

    @Test
    void postgresWithLogicalDecodingSeesNoDifference() throws Throwable {
        // Writes sent exactly as written, the id of each writing transaction asked before its commit.
        DataSource server = PostgresDatabase.logical().dataSource();
        try (Connection c = server.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS invisible_plain");
            s.execute("DROP DATABASE IF EXISTS invisible_recorded");
            s.execute("CREATE DATABASE invisible_plain");
            s.execute("CREATE DATABASE invisible_recorded");
        }
        compare(PostgresDatabase.logical().database("invisible_plain"),
                PostgresDatabase.logical().database("invisible_recorded"), true, true);
    }

    /**
     * MariaDB through its own driver: INSERT and DELETE rewritten with RETURNING, UPDATEs, inserts
     * asking for generated keys and their batches read back by key inside their transaction,
     * aggregates with hidden JSON arrays, tables looked up inside transactions. What cannot be read
     * back (in auto-commit mode) is listed, and the rest passes.
     */
    @Test
    void mariadbSeesNoDifference() throws Throwable {
        mariadbSeesNoDifference(MariadbDatabase.database("invisible_plain").dataSource(),
                MariadbDatabase.database("invisible_recorded").dataSource());
    }

    /** The same through MySQL's driver, whose generated keys, warnings and batches are its own. */
    @Test
    void mariadbThroughMysqlsDriverSeesNoDifference() throws Throwable {
        mariadbSeesNoDifference(MariadbDatabase.database("invisible_plain_cj").mysqlDriver(),
                MariadbDatabase.database("invisible_recorded_cj").mysqlDriver());
    }

    /**
     * MariaDB with a row-based binary log, through both drivers: writes sent exactly as written,
     * the GTID of each writing transaction asked after its commit, UPDATEs by key in a transaction
     * read back. Nothing is left out, and the rest passes.
     */
    @Test
    void mariadbWithTheBinaryLogSeesNoDifference() throws Throwable {
        mariadbSeesNoDifference(MariadbDatabase.logged("invisible_plain_bl").dataSource(),
                MariadbDatabase.logged("invisible_recorded_bl").dataSource(), true);
        mariadbSeesNoDifference(MariadbDatabase.logged("invisible_plain_bl_cj").mysqlDriver(),
                MariadbDatabase.logged("invisible_recorded_bl_cj").mysqlDriver(), true);
    }

    private static void mariadbSeesNoDifference(DataSource plain, DataSource recorded) throws Throwable {
        mariadbSeesNoDifference(plain, recorded, false);
    }

    private static void mariadbSeesNoDifference(DataSource plain, DataSource recorded, boolean logged) throws Throwable {
        InvisibilityWorkload.schema(plain, false);
        InvisibilityWorkload.schema(recorded, false);
        List<List<String>> expected = InvisibilityWorkload.run(plain, true);
        AtomicReference<List<List<String>>> actual = new AtomicReference<>();
        RecordedHistory history = RecordedRun.record("invisibility", recorded, ds -> actual.set(InvisibilityWorkload.run(ds, true)));
        for (int t = 0; t < InvisibilityWorkload.THREADS; t++) {
            assertThat(actual.get().get(t)).as("thread %d", t).containsExactlyElementsOf(expected.get(t));
        }
        // A warning each driver gives its own SQLSTATE (MariaDB's none, MySQL's 42S02).
        assertThat(expected.stream().flatMap(List::stream)).anyMatch(s -> s.startsWith("exception"))
                .anyMatch(s -> s.startsWith("row ")).anyMatch(s -> s.startsWith("warning ") && !s.equals("warning none"));
        // The events inserted in auto-commit mode say every column but the numbered key: recorded,
        // unless the table's look-up did not finish in time on a loaded machine (64 threads meet it
        // at once on a cold server), which leaves it out saying so: weaker, never wrong.
        if (logged) {
            assertThat(history.writesFrom()).anySatisfy(w -> assertThat(w).contains("binary log"));
        }
        assertThat(history.notModelled()).as("%s %s", history.writesFrom(), history.notModelled()).filteredOn(n -> n.subject().startsWith("table "))
                .filteredOn(n -> !(n.subject().startsWith("table events") && n.reason().contains("primary key is not known")))
                .extracting(n -> n.subject().split(" ")[1]).filteredOn(table -> !table.startsWith("no_such_table"))
                .containsOnlyElementsOf(logged ? List.of() : List.of("items"));

        InvisibilityWorkload.schema(recorded, false);
        RecordedHistory checkable = RecordedRun.record("checkable", recorded, ds -> InvisibilityWorkload.run(ds, false));
        assertThat(checkable.history().transactions()).hasSizeGreaterThan(InvisibilityWorkload.THREADS * 10);
        CheckResult result = RecordedRun.check(checkable, IsolationLevel.SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s", result.explanationText().orElse("")).isTrue();
    }

    private static void compare(DataSource plain, DataSource recorded, boolean postgres) throws Exception {
        compare(plain, recorded, postgres, false);
    }

    private static void compare(DataSource plain, DataSource recorded, boolean postgres, boolean logical) throws Exception {
        // HSQLDB has no ordered array aggregate: its aggregates stay unrecorded.
        boolean aggregates = !recorded.getClass().getName().contains("hsqldb");
        InvisibilityWorkload.schema(plain, postgres);
        InvisibilityWorkload.schema(recorded, postgres);

        List<List<String>> expected = InvisibilityWorkload.run(plain, true);
        AtomicReference<List<List<String>>> actual = new AtomicReference<>();
        RecordedHistory history = RecordedRun.record("invisibility", recorded, ds -> actual.set(InvisibilityWorkload.run(ds, true)));

        for (int t = 0; t < InvisibilityWorkload.THREADS; t++) {
            assertThat(actual.get().get(t)).as("thread %d", t).containsExactlyElementsOf(expected.get(t));
        }
        assertThat(expected.stream().flatMap(List::stream)).anyMatch(s -> s.startsWith("exception"))
                .anyMatch(s -> s.startsWith("keys true 1")).anyMatch(s -> s.startsWith("row "));
        if (postgres) {
            assertThat(expected.stream().flatMap(List::stream)).anyMatch(s -> s.startsWith("warning 0"))
                    .anyMatch(s -> s.startsWith("upsert 1")).anyMatch(s -> s.startsWith("merge 1"));
        }
        // Batches of Statement, a DELETE batch on H2, writes sent with executeQuery leave items out;
        // RETURN_GENERATED_KEYS leaves events out except on PostgreSQL, where the keys are every column.
        // (Reads left unchecked are listed too, as "the reads of" and "the query": not tables left out.)
        assertThat(history.notModelled()).filteredOn(n -> n.subject().startsWith("table "))
                .extracting(n -> n.subject().split(" ")[1])
                .filteredOn(table -> !table.startsWith("no_such_table"))
                .containsExactlyInAnyOrderElementsOf(logical ? List.of() : postgres ? List.of("items") : List.of("items", "events"));

        // Without the unseen writes nothing is left out, and the concurrent history passes the check.
        InvisibilityWorkload.schema(recorded, postgres);
        RecordedHistory checkable = RecordedRun.record("checkable", recorded, ds -> {
            // The tables' columns are looked up between transactions: a batch in the first
            // transaction that meets its table could not ask for them, and would leave it out.
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT * FROM items").close();
                s.executeQuery("SELECT * FROM events").close();
            }
            InvisibilityWorkload.run(ds, false);
        });
        assertThat(checkable.notModelled()).filteredOn(n -> n.subject().startsWith("table "))
                .allSatisfy(n -> assertThat(n.subject()).startsWith("table no_such_table"));
        assertThat(checkable.history().transactions()).hasSizeGreaterThan(InvisibilityWorkload.THREADS * 10);
        // The hidden columns were there: aggregates and narrow projections became predicate reads.
        assertThat(checkable.history().transactions()).as("left out: %s", checkable.notModelled()).extracting(Object::toString)
                .anyMatch(t -> t.contains("predicate(items where qty >= 2 AND id BETWEEN"))
                // Keys asked for by name: the full rows were recorded.
                .anyMatch(t -> t.matches("(?s).*w\\(events/\\d+, \\{\"id\":\\d+,\"owner\":\\d+,\"what\":\"named\"\\}\\).*"))
                // Prepared batches' rows were recorded, each with its full row.
                .anyMatch(t -> t.matches("(?s).*w\\(items/\\d+, \\{\"id\":\\d+,\"name\":\"batched\",\"price\":null,\"qty\":1\\}\\).*"));
        if (postgres) {
            // PostgreSQL 18 returned the upserts' and merges' rows with their old versions: recorded, not left out.
            assertThat(checkable.history().transactions()).as("left out: %s", checkable.notModelled()).extracting(Object::toString)
                    .anyMatch(t -> t.contains("\"name\":\"merged\"")).anyMatch(t -> t.contains("\"name\":\"upserted\""));
        }
        if (aggregates) {
            assertThat(checkable.history().transactions()).as("left out: %s", checkable.notModelled()).extracting(Object::toString)
                    .anyMatch(t -> t.matches("(?s).*predicate\\(items where id = \\d+998\\).*"));
        }
        CheckResult result = RecordedRun.check(checkable, IsolationLevel.SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s", result.explanationText().orElse("")).isTrue();
    }
}
