package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What PostgreSQL's MERGE does at SERIALIZABLE when the row it matches was updated by a
 * transaction that committed after its snapshot: a plain UPDATE fails with SQLSTATE 40001, but
 * MERGE (seen on PostgreSQL 18.1) waits for the other's commit, matches the newer version and
 * commits, having read two versions of one row. isocheck catches that. Found by
 * {@link SerializableDatabaseSoundnessTests}, whose random workloads included MERGE at first.
 */
class PostgresMergeAnomalyTests {

    @Test
    void aMergeThatMatchesAConcurrentUpdateAtSerializableIsCaughtUnlessPostgresRefusesIt() throws Throwable {
        PostgresDatabase database = PostgresDatabase.get();
        database.run("DROP TABLE IF EXISTS merged", "CREATE TABLE merged (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO merged VALUES (1, 1)");
        String[] outcome = new String[1];
        RecordedHistory recorded = RecordedRun.record("merge at serializable", database.dataSource(), ds -> {
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                for (Connection c : new Connection[] {a, b}) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                }
                Statement sa = a.createStatement();
                try (ResultSet rs = sa.executeQuery("SELECT v FROM merged WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
                try (Statement sb = b.createStatement()) {
                    sb.executeUpdate("UPDATE merged SET v = 10 WHERE id = 1");
                }
                // A's MERGE waits for B's row lock, so it runs on a thread of its own.
                CompletableFuture<Integer> merge = CompletableFuture.supplyAsync(() -> {
                    try {
                        return sa.executeUpdate("MERGE INTO merged t USING (VALUES (1)) AS src (id) ON t.id = src.id"
                                + " WHEN MATCHED THEN UPDATE SET v = t.v + 1");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Thread.sleep(300);
                b.commit();
                try {
                    merge.join();
                    a.commit();
                    outcome[0] = "committed";
                } catch (RuntimeException refused) {
                    a.rollback();
                    outcome[0] = "refused";
                }
            }
        });

        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        if (outcome[0].equals("refused")) {
            // The database kept to SERIALIZABLE: nothing to catch.
            assertThat(result.isSatisfied()).as("%s", result.explanationText().orElse("")).isTrue();
        } else {
            // A read v = 1, then its MERGE read B's v = 10 and wrote 11: two versions of one row in one transaction.
            assertThat(recorded.history().transactions()).extracting(Object::toString)
                    .anySatisfy(t -> assertThat(t).contains("r(merged/1, {\"v\":1})").contains("r(merged/1, {\"id\":1,\"v\":10})")
                            .contains("w(merged/1, {\"id\":1,\"v\":11})"));
            assertThat(result.isViolated()).as("%s", result.verdict()).isTrue();
            assertThat(result.anomaly().orElseThrow().type()).isIn(AnomalyType.INTERNAL, AnomalyType.G_SINGLE, AnomalyType.G2_ITEM);
        }
    }
}
