package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.CheckResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.internal.recording.RecordedHistory;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * {@link TrustedConstructs} on PostgreSQL. Each construct's expectation of what is left out is
 * {@link #expectLeftOut}: none where the database's log records the writes (but for TRUNCATE,
 * which the log shows as a whole table), something listed where the writes come from the
 * statements and the construct writes where the statement does not say.
 */
abstract class PostgresTrustedConstructs extends TrustedConstructs {

    /** Whether the writes come from the database's log. */
    abstract boolean writesFromLog();

    @BeforeEach
    void schema() throws SQLException {
        database().run(
                "DROP TABLE IF EXISTS acct, src, audit, closed, parent, child, grandchild, a, b, inbox, archive, meas,"
                        + " keyed_uuid, keyed_ts, keyed_char, keyed_int CASCADE",
                "CREATE TABLE acct (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO acct VALUES (1, 100), (2, 100)",
                "CREATE TABLE audit (id serial PRIMARY KEY, acct int, delta int)",
                "CREATE TABLE src (id int PRIMARY KEY, delta int)",
                "INSERT INTO src VALUES (1, 10)",
                "CREATE TABLE closed (id int PRIMARY KEY)",
                "INSERT INTO closed VALUES (2)",
                "CREATE TABLE parent (id int PRIMARY KEY)",
                "CREATE TABLE child (id int PRIMARY KEY, parent int REFERENCES parent ON DELETE CASCADE)",
                "CREATE TABLE grandchild (id int PRIMARY KEY, child int REFERENCES child ON DELETE CASCADE)",
                "INSERT INTO parent VALUES (1), (2)",
                "INSERT INTO child VALUES (10, 1), (20, 2)",
                "INSERT INTO grandchild VALUES (100, 10), (200, 20)",
                "CREATE TABLE a (id int PRIMARY KEY, v int)",
                "CREATE TABLE b (id int PRIMARY KEY, v int)",
                "INSERT INTO a VALUES (1, 1)",
                "INSERT INTO b VALUES (1, 1)",
                "CREATE TABLE inbox (id int PRIMARY KEY, body text)",
                "CREATE TABLE archive (id int PRIMARY KEY, body text)",
                "INSERT INTO inbox VALUES (1, 'one'), (2, 'two')",
                "CREATE TABLE meas (id int, day date, v int, PRIMARY KEY (id, day)) PARTITION BY RANGE (day)",
                "CREATE TABLE meas_2023 PARTITION OF meas FOR VALUES FROM ('2023-01-01') TO ('2024-01-01')",
                "CREATE TABLE meas_2024 PARTITION OF meas FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')",
                "INSERT INTO meas VALUES (1, '2023-05-01', 1)",
                "CREATE OR REPLACE FUNCTION audited() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " INSERT INTO audit (acct, delta) VALUES (NEW.id, 1); RETURN NEW; END $$",
                "CREATE OR REPLACE FUNCTION bump(i int) RETURNS int LANGUAGE sql AS"
                        + " $$ UPDATE acct SET balance = balance + 1 WHERE id = i RETURNING balance $$",
                "CREATE TABLE keyed_uuid (id uuid PRIMARY KEY, v int)",
                "INSERT INTO keyed_uuid VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1)",
                "CREATE TABLE keyed_ts (ts timestamp PRIMARY KEY, v int)",
                "INSERT INTO keyed_ts VALUES ('2024-01-01 10:00', 1)",
                "CREATE TABLE keyed_char (k char(4) PRIMARY KEY, v int)",
                "INSERT INTO keyed_char VALUES ('ab', 1)",
                "CREATE TABLE keyed_int (id int PRIMARY KEY, v int)",
                "INSERT INTO keyed_int VALUES (1, 1)");
    }

    /**
     * The construct interleaved in a reading transaction: with the log, caught; without it, caught
     * or a table listed as left out, never a silent pass. The data is then put back as it was (every
     * table of the schema, its triggers, rules and foreign keys held off meanwhile), for the serial run.
     */
    @Override
    void interleaved(String name, List<String> tables, Work construct) throws Exception {
        List<String> all = new java.util.ArrayList<>();
        try (Connection owner = database().dataSource().getConnection(); Statement s = owner.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT c.relname FROM pg_catalog.pg_class c WHERE c.relnamespace ="
                    + " 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition")) {
                while (rs.next()) {
                    all.add(rs.getString(1));
                }
            }
            for (String table : all) {
                s.execute("CREATE TEMPORARY TABLE \"saved " + table + "\" AS SELECT * FROM \"" + table + "\"");
            }
            RecordedHistory recorded = recordInterleaved(name, tables, construct);
            CheckResult result = RecordedRun.check(recorded, dev.isocheck.IsolationLevel.SERIALIZABLE);
            boolean leftOut = recorded.notModelled().stream().anyMatch(n -> n.leavesTableOut());
            if (writesFromLog()) {
                assertThat(result.isSatisfied()).as("%s interleaved, with the log: caught%n%s%n%s", name,
                        recorded.history().transactions(), recorded.notModelled()).isFalse();
            } else {
                assertThat(!result.isSatisfied() || leftOut).as("%s interleaved, from the statements: caught or listed%n%s",
                        name, recorded.history().transactions()).isTrue();
            }
            s.execute("SET session_replication_role = replica");
            s.execute("TRUNCATE " + String.join(", ", all.stream().map(t -> "\"" + t + "\"").toList()));
            for (String table : all) {
                s.execute("INSERT INTO \"" + table + "\" SELECT * FROM \"saved " + table + "\"");
            }
            s.execute("RESET session_replication_role");
        }
    }

    /** Asserts what the run left out: nothing with the log, or at least {@code tables} without it. */
    void expectLeftOut(RecordedHistory recorded, String... tables) {
        if (writesFromLog()) {
            // Nothing left out; a statement that reads inside itself (DELETE ... USING) is listed for its reads only.
            assertThat(recorded.notModelled()).as("left out").allSatisfy(n -> assertThat(n.reason())
                    .startsWith("what it reads besides its own rows is not checked"));
        } else {
            assertThat(String.join("; ", subjects(recorded))).as("left out").containsAnyOf(tables);
        }
    }

    @Test
    void aTriggerFiredByAnUpdateFrom() throws Exception {
        database().run("CREATE TRIGGER acct_audit AFTER UPDATE ON acct FOR EACH ROW EXECUTE FUNCTION audited()");
        RecordedHistory recorded = serially("update from", List.of("acct", "audit", "src"), inTransaction(
                "UPDATE acct SET balance = acct.balance + s.delta FROM src s WHERE acct.id = s.id"));
        expectLeftOut(recorded, "every table", "acct");
    }

    @Test
    void aDeleteUsingAnotherTable() throws Exception {
        RecordedHistory recorded = serially("delete using", List.of("acct", "closed"), inTransaction(
                "DELETE FROM acct USING closed WHERE acct.id = closed.id"));
        expectLeftOut(recorded, "every table", "acct");
    }

    @Test
    void aCascadeTwoLevelsDeep() throws Exception {
        RecordedHistory recorded = serially("cascade", List.of("parent", "child", "grandchild"), inTransaction(
                "DELETE FROM parent WHERE id = 1"));
        expectLeftOut(recorded, "child", "grandchild");
    }

    @Test
    void aTruncateOfTwoTables() throws Exception {
        RecordedHistory recorded = seriallyAlone("truncate", List.of("a", "b"), autoCommitted("TRUNCATE a, b"));
        if (writesFromLog()) {
            // The log shows a TRUNCATE as such, not row by row: its tables are left out.
            assertThat(String.join("; ", subjects(recorded))).contains("table a", "table b");
        } else {
            assertThat(String.join("; ", subjects(recorded))).contains("every table");
        }
    }

    @Test
    void aTruncateThatCascades() throws Exception {
        RecordedHistory recorded = seriallyAlone("truncate cascade", List.of("parent", "child", "grandchild"),
                inTransaction("TRUNCATE parent CASCADE"));
        assertThat(String.join("; ", subjects(recorded))).containsAnyOf("every table", "table child");
        if (writesFromLog()) {
            assertThat(String.join("; ", subjects(recorded))).contains("table parent", "table child", "table grandchild");
        }
    }

    @Test
    void aWritableCommonTableExpression() throws Exception {
        RecordedHistory recorded = serially("writable CTE", List.of("inbox", "archive"), autoCommitted(
                "WITH moved AS (DELETE FROM inbox WHERE id = 1 RETURNING id, body) INSERT INTO archive SELECT id, body FROM moved"));
        expectLeftOut(recorded, "every table", "inbox");
    }

    @Test
    void twoStatementsInOneString() throws Exception {
        RecordedHistory recorded = serially("two statements", List.of("acct"), inTransaction(
                "LOCK TABLE acct IN EXCLUSIVE MODE; UPDATE acct SET balance = 5 WHERE id = 1"));
        expectLeftOut(recorded, "every table", "acct");
    }

    @Test
    void aTriggerOnAPartitionWrittenThroughItsParent() throws Exception {
        database().run("CREATE TRIGGER meas_audit AFTER INSERT OR UPDATE ON meas_2024 FOR EACH ROW EXECUTE FUNCTION audited()");
        RecordedHistory recorded = serially("partition", List.of("meas", "audit"), inTransaction(
                "INSERT INTO meas VALUES (2, '2024-05-01', 7)",
                "UPDATE meas SET v = 8 WHERE id = 1"));
        expectLeftOut(recorded, "every table", "meas");
    }

    @Test
    void aFunctionThatWritesCalledFromASelect() throws Exception {
        RecordedHistory recorded = serially("function in select", List.of("acct"), inTransaction("SELECT bump(1)"));
        if (writesFromLog()) {
            // Its writes are in the log; what it read is not, and is listed.
            assertThat(recorded.notModelled()).singleElement().satisfies(n -> assertThat(n.reason())
                    .contains("function bump, which may read any table"));
        }
    }

    @Test
    void aFunctionThatWritesCalledInsideInsertValues() throws Exception {
        RecordedHistory recorded = serially("function in values", List.of("acct", "audit"), autoCommitted(
                "INSERT INTO audit (acct, delta) VALUES (1, bump(2))"));
        if (writesFromLog()) {
            assertThat(recorded.notModelled()).singleElement().satisfies(n -> assertThat(n.reason())
                    .contains("function bump, which may read any table"));
        }
    }

    @Test
    void copyThroughTheDriversOwnApi() throws Exception {
        RecordedHistory recorded = serially("copy", List.of("acct"), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT balance FROM acct WHERE id = 1")) {
                    rs.next();
                }
                c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY acct FROM STDIN", new StringReader("3\t50\n"));
                c.commit();
            }
        });
        if (writesFromLog()) {
            assertThat(recorded.notModelled()).isEmpty();
        }
        assertThat(database().dataSource().getConnection().createStatement()
                .executeQuery("SELECT count(*) FROM acct WHERE id = 3")).satisfies(rs -> {
                    rs.next();
                    assertThat(rs.getInt(1)).as("the COPYed row was committed").isOne();
                });
    }

    @Test
    void keysWrittenAsLiteralsTheDatabaseReadsOtherwise() throws Exception {
        serially("literal keys", List.of("keyed_uuid", "keyed_ts", "keyed_char", "keyed_int"), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                read(s, "SELECT v FROM keyed_uuid WHERE id = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'");
                read(s, "SELECT v FROM keyed_ts WHERE ts = '2024-01-01 10:00'");
                read(s, "SELECT v FROM keyed_char WHERE k = 'ab'");
                read(s, "SELECT v FROM keyed_int WHERE id = '01'");
                s.executeUpdate("UPDATE keyed_uuid SET v = 2 WHERE id = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'");
                s.executeUpdate("UPDATE keyed_ts SET v = 2 WHERE ts = '2024-01-01 10:00'");
                s.executeUpdate("UPDATE keyed_char SET v = 2 WHERE k = 'ab'");
                s.executeUpdate("UPDATE keyed_int SET v = 2 WHERE id = '01'");
                read(s, "SELECT v FROM keyed_uuid WHERE id = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'");
                read(s, "SELECT v FROM keyed_ts WHERE ts = '2024-01-01 10:00'");
                read(s, "SELECT v FROM keyed_char WHERE k = 'ab'");
                read(s, "SELECT v FROM keyed_int WHERE id = '01'");
                read(s, "SELECT v FROM keyed_int WHERE id = '02'");
                s.executeUpdate("INSERT INTO keyed_int VALUES (2, 2)");
                read(s, "SELECT v FROM keyed_int WHERE id = '02'");
            }
        });
    }

    @Test
    void anErrorTheApplicationCaughtUnderAutosaveThenACommit() throws Exception {
        org.postgresql.ds.PGSimpleDataSource autosaving = new org.postgresql.ds.PGSimpleDataSource();
        try (Connection plain = database().dataSource().getConnection()) {
            autosaving.setURL(plain.getMetaData().getURL());
            autosaving.setUser(plain.getMetaData().getUserName());
        }
        autosaving.setAutosave(org.postgresql.jdbc.AutoSave.ALWAYS);
        RecordedHistory recorded = RecordedRun.record("autosave", autosaving, ds -> {
            readAll(ds, List.of("acct"));
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE acct SET balance = 1 WHERE id = 1");
                    assertThatThrownBy(() -> s.executeUpdate("INSERT INTO acct VALUES (1, 0)")).isInstanceOf(SQLException.class);
                }
                c.commit();
            }
            readAll(ds, List.of("acct"));
        });
        assertThat(RecordedRun.check(recorded, dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE).isSatisfied())
                .as("%s", recorded.history().transactions()).isTrue();
    }

    @Test
    void aTriggerCreatedAfterTheRecorderFirstLookedAtItsTable() throws Exception {
        javax.sql.DataSource shared = dev.isocheck.Isocheck.record(database().dataSource());
        dev.isocheck.internal.recording.Recording first = new dev.isocheck.internal.recording.Recording("first");
        try (var ignored = first.bind()) {
            inTransaction("UPDATE acct SET balance = 3 WHERE id = 2").run(shared);
        }
        first.finish();
        database().run("CREATE TRIGGER acct_audit AFTER UPDATE ON acct FOR EACH ROW EXECUTE FUNCTION audited()");
        dev.isocheck.internal.recording.Recording second = new dev.isocheck.internal.recording.Recording("second");
        try (var ignored = second.bind()) {
            readAll(shared, List.of("acct", "audit"));
            inTransaction("UPDATE acct SET balance = 4 WHERE id = 2").run(shared);
            readAll(shared, List.of("acct", "audit"));
        }
        RecordedHistory recorded = second.finish();
        assertThat(RecordedRun.check(recorded, dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE).isSatisfied())
                .as("%s %s", recorded.history().transactions(), recorded.notModelled()).isTrue();
        expectLeftOut(recorded, "every table", "audit");
    }

    @Test
    void aQueryOrderedByAPositionItDoesNotHaveFailsAsItWouldUnrecorded() throws Exception {
        String sql = "SELECT balance FROM acct WHERE balance > 0 ORDER BY 2";
        String plain = null;
        try (Connection c = database().dataSource().getConnection(); Statement s = c.createStatement()) {
            s.executeQuery(sql);
        } catch (SQLException e) {
            plain = e.getMessage();
        }
        assertThat(plain).as("fails without the recorder").isNotNull();
        String expected = plain;
        RecordedRun.record("order by position", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThatThrownBy(() -> s.executeQuery(sql)).isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("42P10");
                    assertThat(e.getMessage()).isEqualTo(expected);
                });
            }
        });
    }

    /**
     * A role that may insert and read one column only: recorded, its statements succeed exactly
     * as they do unrecorded (no RETURNING *, no hidden key column it may not read).
     */
    @Test
    void aRoleWithColumnGrantsSeesWhatItWouldUnrecorded() throws Throwable {
        database().run("DROP TABLE IF EXISTS secrets", "CREATE TABLE secrets (id int PRIMARY KEY, owner text, note text)",
                "INSERT INTO secrets VALUES (1, 'alice', 'one')",
                "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'note_writer') THEN"
                        + " CREATE ROLE note_writer LOGIN; END IF; END $$",
                "GRANT INSERT ON secrets TO note_writer", "GRANT SELECT (note) ON secrets TO note_writer");
        javax.sql.DataSource asWriter = restricted();
        List<String> plain = grantedWork(asWriter, 2);
        List<String> recorded = new java.util.ArrayList<>();
        RecordedHistory history = RecordedRun.record("column grants", asWriter, ds -> recorded.addAll(grantedWork(ds, 3)));
        assertThat(plain).containsExactly("insert 1", "note n2");
        assertThat(recorded).as("the same statements succeed").containsExactly("insert 1", "note n2", "note n3");
        assertThat(RecordedRun.check(history, dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * Row-level security hides Bob's rows from Alice: her query's result is not every row its
     * WHERE selects, and must not be taken as such while Bob's insert is in the history.
     */
    @Test
    void aQueryUnderRowLevelSecurityIsNotTakenAsEveryRowItsWhereSelects() throws Throwable {
        database().run("DROP TABLE IF EXISTS notes_rls", "CREATE TABLE notes_rls (id int PRIMARY KEY, owner text, v int)",
                "INSERT INTO notes_rls VALUES (1, 'note_writer', 1)",
                "ALTER TABLE notes_rls ENABLE ROW LEVEL SECURITY",
                "CREATE POLICY own ON notes_rls USING (owner = current_user)",
                "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'note_writer') THEN"
                        + " CREATE ROLE note_writer LOGIN; END IF; END $$",
                "GRANT SELECT, INSERT, UPDATE ON notes_rls TO note_writer");
        javax.sql.DataSource alice = dev.isocheck.Isocheck.record(restricted());
        RecordedHistory recorded = RecordedRun.record("row-level security", database().dataSource(), owner -> {
            readWhere(alice, "SELECT id, v FROM notes_rls WHERE v > 0");
            try (Connection c = owner.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO notes_rls VALUES (2, 'bob', 5)");
            }
            readWhere(alice, "SELECT id, v FROM notes_rls WHERE v > 0");
            readWhere(alice, "SELECT v FROM notes_rls WHERE id = 2");
        });
        assertThat(RecordedRun.check(recorded, dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE).isSatisfied())
                .as("%s", recorded.history().transactions()).isTrue();
        assertThat(String.join("; ", recorded.notModelled().stream().map(Object::toString).toList()))
                .contains("row-level security");
    }

    /** A count over many rows: its read is left unchecked, not recorded row by row into a history too large to decide. */
    @Test
    void aCountOverManyRowsIsListedAsUncheckedAndTheHistoryStaysSmall() throws Exception {
        database().run("DROP TABLE IF EXISTS big", "CREATE TABLE big (id int PRIMARY KEY, v int)",
                "INSERT INTO big SELECT g, g % 7 FROM generate_series(1, 20000) g");
        RecordedHistory recorded = RecordedRun.record("big count", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM big WHERE v >= 0")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(20000);
            }
        });
        assertThat(String.join("; ", recorded.notModelled().stream().map(Object::toString).toList()))
                .contains("an aggregate over more than 10000 rows");
        assertThat(recorded.history().transactions().get(0).size()).isZero();
    }

    /** A table with a DO INSTEAD rule: the recorded INSERT succeeds as the plain one does. */
    @Test
    void anInsertIntoATableWithARuleSucceedsAsItWouldUnrecorded() throws Exception {
        database().run("DROP TABLE IF EXISTS ruled, ruled_log CASCADE", "CREATE TABLE ruled (id int PRIMARY KEY)",
                "CREATE TABLE ruled_log (id int PRIMARY KEY)",
                "CREATE RULE divert AS ON INSERT TO ruled DO INSTEAD INSERT INTO ruled_log VALUES (NEW.id)");
        RecordedHistory recorded = serially("rule", List.of("ruled", "ruled_log"), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                // The first meeting looks the table up; the second is sent knowing its rule.
                s.executeQuery("SELECT * FROM ruled").close();
                s.executeUpdate("INSERT INTO ruled VALUES (1)");
            }
        });
        if (!writesFromLog()) {
            assertThat(String.join("; ", subjects(recorded))).contains("every table");
        }
    }

    /**
     * A MERGE prepared inside a transaction, before the recorder knew its table (rewritten to
     * return its rows, as a table not looked up yet is assumed readable), then executed after
     * another connection's look-up found row-level security on it: it runs as the application
     * wrote it, answering as it would unrecorded, and its table is left out.
     */
    @Test
    void aMergePreparedBeforeItsTableWasFoundToHaveRowLevelSecurity() throws Exception {
        database().run("DROP TABLE IF EXISTS guarded", "CREATE TABLE guarded (id int PRIMARY KEY, v int)",
                "INSERT INTO guarded VALUES (1, 1)", "ALTER TABLE guarded ENABLE ROW LEVEL SECURITY");
        RecordedHistory recorded = RecordedRun.record("merge after look-up", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT 1").close();
                }
                try (PreparedStatement merge = c.prepareStatement("MERGE INTO guarded g USING (SELECT ?::int AS id) s"
                        + " ON g.id = s.id WHEN MATCHED THEN UPDATE SET v = g.v + 1 WHEN NOT MATCHED THEN INSERT VALUES (s.id, 1)")) {
                    // Another connection, between its transactions, looks the table up.
                    readWhere(ds, "SELECT id, v FROM guarded");
                    merge.setInt(1, 1);
                    assertThat(merge.executeUpdate()).isOne();
                }
                c.commit();
            }
            readWhere(ds, "SELECT id, v FROM guarded");
        });
        assertThat(RecordedRun.check(recorded, dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE).isSatisfied())
                .as("%s %s", recorded.history().transactions(), recorded.notModelled()).isTrue();
    }

    private static void readWhere(javax.sql.DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    /**
     * An auto-commit UPDATE whose client gives up (socketTimeout) while the server goes on and
     * commits: its write must not be taken as lost.
     */
    @Test
    void anAutoCommitWriteWhoseClientTimedOutWhileTheServerCommitted() throws Throwable {
        javax.sql.DataSource impatient = withSocketTimeoutOfOneSecond();
        RecordedHistory recorded = RecordedRun.record("socket timeout", database().dataSource(), ds -> {
            readWhere(ds, "SELECT id, balance FROM acct");
            javax.sql.DataSource recordedImpatient = dev.isocheck.Isocheck.record(impatient);
            try (Connection c = recordedImpatient.getConnection(); Statement s = c.createStatement()) {
                assertThatThrownBy(() -> s.executeUpdate(
                        "UPDATE acct SET balance = 7 WHERE id = 1 AND pg_sleep(2) IS NOT NULL"))
                        .isInstanceOf(SQLException.class);
            }
            Thread.sleep(2500);
            readWhere(ds, "SELECT id, balance FROM acct");
        });
        assertThat(RecordedRun.check(recorded, dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE).isSatisfied())
                .as("%s %s", recorded.history().transactions(), recorded.notModelled()).isTrue();
    }

    /** The database's data source, its client giving up on a statement after one second. */
    abstract javax.sql.DataSource withSocketTimeoutOfOneSecond() throws Throwable;

    /** The restricted role's data source on the same server and database. */
    abstract javax.sql.DataSource restricted() throws Throwable;

    private static List<String> grantedWork(javax.sql.DataSource ds, int id) throws SQLException {
        List<String> seen = new java.util.ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            try {
                seen.add("insert " + s.executeUpdate("INSERT INTO secrets VALUES (" + id + ", 'bob', 'n" + id + "')"));
            } catch (SQLException e) {
                seen.add("insert failed " + e.getSQLState());
            }
            try (ResultSet rs = s.executeQuery("SELECT note FROM secrets WHERE note LIKE 'n%' ORDER BY note")) {
                while (rs.next()) {
                    seen.add("note " + rs.getString(1));
                }
            } catch (SQLException e) {
                seen.add("select failed " + e.getSQLState());
            }
        }
        return seen;
    }

    private static void read(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }
}
