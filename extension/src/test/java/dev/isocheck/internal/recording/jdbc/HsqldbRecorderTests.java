package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The recorder on HSQLDB, a database without a rewriting dialect: reads are recorded, every write
 * leaves its table out and is listed, and nothing is guessed.
 */
class HsqldbRecorderTests {

    private final DataSource hsqldb = InvisibilityTests.hsqldb("recorder");

    @Test
    void readsAreRecordedAndWritesLeaveTheirTablesOut() throws Exception {
        try (Connection c = hsqldb.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS doctors");
            s.execute("DROP TABLE IF EXISTS shifts");
            s.execute("CREATE TABLE doctors (id INT PRIMARY KEY, on_call BOOLEAN NOT NULL)");
            s.execute("INSERT INTO doctors VALUES (1, TRUE), (2, TRUE)");
            s.execute("CREATE TABLE shifts (id INT PRIMARY KEY, slots INT NOT NULL)");
            s.execute("INSERT INTO shifts VALUES (1, 3)");
        }
        RecordedHistory recorded = RecordedRun.record("hsqldb", hsqldb, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT slots FROM shifts WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                }
                assertThat(s.executeUpdate("UPDATE doctors SET on_call = FALSE WHERE id = 1")).isEqualTo(1);
            }
        });

        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).startsWith("table doctors");
            assertThat(n.reason()).contains("could not rewrite");
        });
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .containsExactly("T1: r(shifts/1, {\"slots\":3})", "T2: ");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }
}
