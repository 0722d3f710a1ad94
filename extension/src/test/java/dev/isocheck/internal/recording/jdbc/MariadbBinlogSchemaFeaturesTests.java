package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The binary-log path on what it was not written for: a partitioned table (a key moved across
 * partitions), trailing comments of each kind, a stored function that writes called from a
 * SELECT, and two tests recording at once on one database, each seeing the other's transactions
 * as sessionless ones. The application sees what it would unrecorded; nothing is left out; the
 * serial and locked runs pass.
 */
class MariadbBinlogSchemaFeaturesTests {

    /** Every write from the log, no table left out, and no violation: the runs are serial or locked. */
    private static void assertPasses(RecordedHistory r) {
        assertThat(r.writesFrom()).anySatisfy(w -> assertThat(w).contains("binary log"));
        assertThat(r.notModelled()).extracting(n -> n.subject()).noneSatisfy(subject -> assertThat(subject).startsWith("table"))
                .noneSatisfy(subject -> assertThat(subject).startsWith("every table"));
        CheckResult result = Isocheck.check(r.history(), IsolationLevel.SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s%n%s", r.history().transactions(), result.explanationText().orElse("")).isTrue();
    }

    private static List<String> rows(Connection c, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void partitionsCommentsAndAWritingFunction() throws Throwable {
        MariadbDatabase db = MariadbDatabase.logged("probe");
        db.run("DROP TABLE IF EXISTS parted", "CREATE TABLE parted (id INT PRIMARY KEY, v INT) PARTITION BY HASH(id) PARTITIONS 4",
                "INSERT INTO parted VALUES (1, 0), (2, 0)",
                "DROP FUNCTION IF EXISTS bump", "CREATE FUNCTION bump(k INT) RETURNS INT DETERMINISTIC MODIFIES SQL DATA BEGIN UPDATE parted SET v = v + 1 WHERE id = k; RETURN k; END");
        List<List<String>> seen = new ArrayList<>();
        RecordedHistory r = RecordedRun.record("features", db.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                seen.add(rows(c, "SELECT v FROM parted WHERE id = 1 -- trailing comment"));
                s.executeUpdate("UPDATE parted SET v = 5 WHERE id = 1 /* trailing */");
                seen.add(rows(c, "SELECT bump(2)"));
                seen.add(rows(c, "SELECT v FROM parted ORDER BY id"));
                c.setAutoCommit(false);
                s.executeUpdate("UPDATE parted SET id = 7 WHERE id = 1 # moved across partitions");
                seen.add(rows(c, "SELECT id FROM parted ORDER BY id"));
                c.commit();
            }
        });
        assertThat(seen).hasToString("[[0], [2], [5, 1], [2, 7]]");
        assertThat(r.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(parted/1, null) w(parted/7, {\"id\":7,\"v\":5})"))
                .anySatisfy(t -> assertThat(t).contains("w(parted/2, {\"id\":2,\"v\":1})"));
        assertPasses(r);
    }

    @Test
    void twoTestsRecordingAtOnce() throws Throwable {
        MariadbDatabase db = MariadbDatabase.logged("probe_par");
        db.run("DROP TABLE IF EXISTS shared", "CREATE TABLE shared (id INT PRIMARY KEY, v INT)", "INSERT INTO shared VALUES (1, 0), (2, 0)");
        DataSource recorded = Isocheck.record(db.dataSource());
        List<RecordedHistory> out = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int key = t + 1;
            threads.add(new Thread(() -> {
                Recording recording = new Recording("parallel " + key);
                try (Recording.Binding ignored = recording.bind()) {
                    for (int i = 0; i < 30; i++) {
                        try (Connection c = recorded.getConnection()) {
                            c.setAutoCommit(false);
                            List<String> v = rows(c, "SELECT v FROM shared WHERE id = " + key + " FOR UPDATE");
                            try (Statement s = c.createStatement()) {
                                s.executeUpdate("UPDATE shared SET v = " + (Integer.parseInt(v.get(0)) + 1) + " WHERE id = " + key);
                            }
                            c.commit();
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                out.add(recording.finish());
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(out).hasSize(2);
        for (RecordedHistory h : out) {
            // Each test's 30 transactions, and the other test's 30 as transactions of no session.
            assertThat(h.history().transactions()).hasSizeGreaterThanOrEqualTo(30);
            assertPasses(h);
        }
    }
}
