package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The recorder on an embedded PostgreSQL server. */
class PostgresRecorderTests extends RecorderScenarios {

    @Override
    TestDatabase database() {
        try {
            return PostgresDatabase.get();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    @Override
    int weakIsolation() {
        // PostgreSQL's REPEATABLE READ is snapshot isolation: write skew commits.
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    @Test
    void serializableWithRetriesIsFine() throws Exception {
        RecordedHistory recorded = RecordedRun.record("serializable", database().dataSource(), ds -> {
            try (Connection a = open(ds, Connection.TRANSACTION_SERIALIZABLE);
                 Connection b = open(ds, Connection.TRANSACTION_SERIALIZABLE)) {
                assertThat(onCall(a, 1) && onCall(a, 2)).isTrue();
                assertThat(onCall(b, 1) && onCall(b, 2)).isTrue();
                goOffCall(a, 1);
                goOffCall(b, 2);
                a.commit();
                assertThatThrownBy(b::commit).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getSQLState()).isEqualTo("40001"));
                b.rollback();
                // The retry sees that alice went off call, and bob stays on.
                assertThat(onCall(b, 1)).isFalse();
                assertThat(onCall(b, 2)).isTrue();
                b.commit();
            }
        });

        assertThat(recorded.history().transactions()).extracting(t -> t.isCommitted()).containsExactly(true, false, true);
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * The losing update of a REPEATABLE READ retry, sent as a batch (Hibernate with
     * {@code hibernate.jdbc.batch_size}): its batch fails with 40001 and the transaction rolls
     * back; what the batch may have written went with it, so nothing is left out and the retry
     * is checked.
     */
    @Test
    void theLosingUpdateOfARetryInABatchLeavesNothingOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("retried batch", database().dataSource(), ds -> {
            try (Connection a = open(ds, Connection.TRANSACTION_REPEATABLE_READ);
                 Connection b = open(ds, Connection.TRANSACTION_REPEATABLE_READ)) {
                int seen = counter(b);
                setCounter(a, counter(a) + 1);
                a.commit();
                assertThatThrownBy(() -> batchSetCounter(b, seen + 1)).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getSQLState()).isEqualTo("40001"));
                b.rollback();
                batchSetCounter(b, counter(b) + 1);
                b.commit();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(t -> t.isCommitted()).containsExactly(true, false, true);
        assertThat(recorded.history().transactions().get(2).toString()).contains("w(counters/1, {\"id\":1,\"n\":2})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    private static void batchSetCounter(Connection c, int n) throws SQLException {
        try (java.sql.PreparedStatement s = c.prepareStatement("UPDATE counters SET n = ? WHERE id = ?")) {
            s.setInt(1, n);
            s.setInt(2, 1);
            s.addBatch();
            assertThat(s.executeBatch()).containsExactly(1);
        }
    }

    @Test
    void aCommitWhoseOutcomeIsUnknownLeavesItsTablesOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("broken commit", database().dataSource(), ds -> {
            try (Connection a = open(ds, Connection.TRANSACTION_READ_COMMITTED)) {
                goOffCall(a, 1);
                int pid;
                try (Statement s = a.createStatement(); var rs = s.executeQuery("SELECT pg_backend_pid()")) {
                    rs.next();
                    pid = rs.getInt(1);
                }
                try (Connection killer = database().dataSource().getConnection(); Statement s = killer.createStatement()) {
                    s.execute("SELECT pg_terminate_backend(" + pid + ")");
                }
                assertThatThrownBy(a::commit).isInstanceOf(SQLException.class);
            }
        });

        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).contains("doctors");
            assertThat(n.reason()).contains("unknown");
        });
    }

    @Test
    void aTableWithTriggersLeavesEveryTableOut() throws Exception {
        database().run("CREATE OR REPLACE FUNCTION count_notes() RETURNS trigger AS $$ BEGIN UPDATE counters SET n = n + 1 WHERE id = 1; RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER notes_counted AFTER INSERT ON notes FOR EACH ROW EXECUTE FUNCTION count_notes()");
        RecordedHistory recorded = RecordedRun.record("trigger", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO notes VALUES (1, 'counted')");
            }
        });

        // Sent as written (the table's trigger leaves every table out anyway): both are listed.
        assertThat(recorded.notModelled()).anySatisfy(n -> {
            assertThat(n.subject()).startsWith("every table");
            assertThat(n.reason()).contains("triggers");
        });
    }

    @Test
    void aWriteThroughAViewLeavesEveryTableOut() throws Exception {
        database().run("CREATE OR REPLACE VIEW on_duty AS SELECT * FROM doctors WHERE on_call");
        try {
            RecordedHistory recorded = RecordedRun.record("view", database().dataSource(), ds -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE on_duty SET on_call = FALSE WHERE id = 2")).isEqualTo(1);
                }
            });

            assertThat(recorded.notModelled()).anySatisfy(n -> {
                assertThat(n.subject()).startsWith("every table");
                assertThat(n.reason()).contains("view");
            });
        } finally {
            database().run("DROP VIEW on_duty");
        }
    }

    /**
     * Strings that compare otherwise than byte for byte make no predicate read: {@code CHAR(n)}
     * pads with blanks ({@code 'ab' = 'ab  '}), a nondeterministic ICU collation ignores case.
     * {@code text} in the database's collation does compare exactly.
     */
    @Test
    void onlyStringsInADeterministicCollationMakePredicateReads() throws Exception {
        database().run("DROP TABLE IF EXISTS labels",
                "CREATE COLLATION IF NOT EXISTS case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
                "CREATE TABLE labels (id INT PRIMARY KEY, code CHAR(4), tag TEXT COLLATE case_insensitive, plain TEXT)",
                "INSERT INTO labels VALUES (1, 'ab', 'Red', 'red')");
        RecordedHistory recorded = RecordedRun.record("collations", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(drain(s.executeQuery("SELECT id FROM labels WHERE code = 'ab'"))).isEqualTo(1);
                assertThat(drain(s.executeQuery("SELECT id FROM labels WHERE tag = 'RED'"))).isEqualTo(1);
                assertThat(drain(s.executeQuery("SELECT id FROM labels WHERE plain = 'red'"))).isEqualTo(1);
            }
        });

        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: r(labels/1, {\"code\":\"ab  \",\"id\":1})",
                "T2: r(labels/1, {\"id\":1,\"tag\":\"Red\"})",
                "T3: predicate(labels where plain = 'red') -> [labels/1={\"id\":1,\"plain\":\"red\"}]");
        assertThat(recorded.notModelled()).extracting(n -> n.subject())
                .containsExactly("the reads of labels WHERE code = 'ab'", "the reads of labels WHERE tag = 'RED'");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * PostgreSQL 18 returns an UPDATE's old rows along with the new ones: the rows it changed are
     * read as they were, as the predicate read of its WHERE, in the columns it used (the name it
     * neither compared nor computed with is not read).
     */
    @Test
    void anUpdateReadsTheRowsItChangedAsThePredicateOfItsWhere() throws Exception {
        RecordedHistory recorded = RecordedRun.record("update reads", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection();
                 var s = c.prepareStatement("UPDATE doctors SET on_call = FALSE WHERE on_call = ? AND id > ?")) {
                s.setBoolean(1, true);
                s.setInt(2, 1);
                assertThat(s.executeUpdate()).isEqualTo(1);
                assertThat(s.getUpdateCount()).isEqualTo(1);
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: predicate(doctors where on_call = TRUE AND id > 1) -> [doctors/2={\"id\":2,\"on_call\":true}]"
                        + " w(doctors/2, {\"id\":2,\"name\":\"bob\",\"on_call\":false})");
    }

    @Test
    void anUpdateThatMovesKeysRemovesTheOldOnesAndWritesTheNew() throws Exception {
        database().run("INSERT INTO counters VALUES (2, 5)");
        RecordedHistory recorded = RecordedRun.record("moved keys", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE counters SET id = id + 10")).isEqualTo(2);
                try (var rs = s.executeQuery("SELECT id, n FROM counters ORDER BY id")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions().get(0).toString())
                .contains("predicate(counters where TRUE) -> [counters/1={\"id\":1}, counters/2={\"id\":2}]")
                .contains("w(counters/1, null) w(counters/2, null)")
                .contains("w(counters/11, {\"id\":11,\"n\":0})")
                .contains("w(counters/12, {\"id\":12,\"n\":5})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * {@code n = n + 1} at READ COMMITTED: the second UPDATE waits for the first's lock and then
     * reads its value, as the recorded reads show, so the history is serializable.
     */
    @Test
    void incrementsInTheDatabaseReadEachOthersValues() throws Exception {
        RecordedHistory recorded = RecordedRun.record("increments", database().dataSource(), ds -> {
            try (Connection a = open(ds, Connection.TRANSACTION_READ_COMMITTED);
                 Connection b = open(ds, Connection.TRANSACTION_READ_COMMITTED)) {
                try (Statement s = a.createStatement()) {
                    s.executeUpdate("UPDATE counters SET n = n + 1 WHERE id = 1");
                }
                var waiting = java.util.concurrent.CompletableFuture.runAsync(() -> {
                    try (Statement s = b.createStatement()) {
                        s.executeUpdate("UPDATE counters SET n = n + 1 WHERE id = 1");
                        b.commit();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Thread.sleep(200);
                a.commit();
                waiting.get();
            }
        });

        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("r(counters/1, {\"id\":1,\"n\":0}) w(counters/1, {\"id\":1,\"n\":1})"))
                .anySatisfy(t -> assertThat(t).contains("r(counters/1, {\"id\":1,\"n\":1}) w(counters/1, {\"id\":1,\"n\":2})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    /** An upsert read the row it found and updated (PostgreSQL 18's old row); a row it inserted it read nothing of. */
    @Test
    void anUpsertReadsTheRowItUpdatedAndNothingOfTheRowItInserted() throws Exception {
        RecordedHistory recorded = RecordedRun.record("upsert", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection();
                 var s = c.prepareStatement("INSERT INTO counters VALUES (?, 10) ON CONFLICT (id) DO UPDATE SET n = counters.n + excluded.n")) {
                s.setInt(1, 1);
                assertThat(s.executeUpdate()).isEqualTo(1);
                s.setInt(1, 7);
                assertThat(s.executeUpdate()).isEqualTo(1);
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: r(counters/1, {\"id\":1,\"n\":0}) w(counters/1, {\"id\":1,\"n\":10})",
                "T2: w(counters/7, {\"id\":7,\"n\":10})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * A MERGE on PostgreSQL 18 returns each row's new and old versions: an update reads and
     * writes, an insert writes, a delete reads and removes. Its source's reads are listed as not
     * checked.
     */
    @Test
    void aMergeIsRecordedRowByRowWithItsOldVersions() throws Exception {
        database().run("DROP TABLE IF EXISTS shelf", "CREATE TABLE shelf (sku TEXT PRIMARY KEY, qty INT NOT NULL)",
                "INSERT INTO shelf VALUES ('a', 1), ('b', 2)");
        RecordedHistory recorded = RecordedRun.record("merge", database().dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("MERGE INTO shelf t USING (VALUES ('a', 5), ('c', 7)) AS src (sku, qty) ON t.sku = src.sku"
                        + " WHEN MATCHED THEN UPDATE SET qty = t.qty + src.qty"
                        + " WHEN NOT MATCHED THEN INSERT (sku, qty) VALUES (src.sku, src.qty)")).isEqualTo(2);
                assertThat(s.executeUpdate("MERGE INTO shelf t USING (VALUES ('b')) AS src (sku) ON t.sku = src.sku"
                        + " WHEN MATCHED THEN DELETE")).isEqualTo(1);
            }
        });

        assertThat(recorded.notModelled()).singleElement()
                .satisfies(n -> assertThat(n.subject()).isEqualTo("the MERGE into shelf"));
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: r(shelf/a, {\"qty\":1,\"sku\":\"a\"}) w(shelf/a, {\"qty\":6,\"sku\":\"a\"}) w(shelf/c, {\"qty\":7,\"sku\":\"c\"})",
                "T2: r(shelf/b, {\"sku\":\"b\"}) w(shelf/b, null)");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }
}
