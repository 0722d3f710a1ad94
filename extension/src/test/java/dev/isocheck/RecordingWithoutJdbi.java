package dev.isocheck;

import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.Callable;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A write skew over plain JDBC, recorded and checked, for {@link JdbiOptionalTests} to run in a
 * class loader that has no Jdbi: returns the explanation's text. Two connections on one thread,
 * interleaved: each reads the row the other then writes.
 */
public final class RecordingWithoutJdbi implements Callable<String> {

    /** For the class loader to instantiate. */
    public RecordingWithoutJdbi() {
    }

    @Override
    public String call() throws Exception {
        // H2's in-memory databases are shared by every class loader of the JVM: a name of its own.
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:without-jdbi-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE flags (id INT PRIMARY KEY, up BOOLEAN NOT NULL)");
            s.execute("INSERT INTO flags VALUES (1, TRUE), (2, TRUE)");
        }
        Recording recording = new Recording("without Jdbi");
        try (Recording.Binding ignored = recording.bind()) {
            writeSkew(Isocheck.record(h2));
        } catch (Exception | Error e) {
            recording.finish();
            throw e;
        }
        RecordedHistory recorded = recording.finish();
        return Isocheck.check(recorded.history(), IsolationLevel.SERIALIZABLE).explanationText().orElse("no violation");
    }

    private static void writeSkew(DataSource recorded) throws SQLException {
        try (Connection a = recorded.getConnection(); Connection b = recorded.getConnection()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            boolean twoUp = isUp(a, 2);
            boolean oneUp = isUp(b, 1);
            if (twoUp) {
                lower(a, 1);
            }
            a.commit();
            if (oneUp) {
                lower(b, 2);
            }
            b.commit();
        }
    }

    private static boolean isUp(Connection c, int id) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT up FROM flags WHERE id = ?")) {
            select.setInt(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        }
    }

    private static void lower(Connection c, int id) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE flags SET up = FALSE WHERE id = ?")) {
            update.setInt(1, id);
            update.executeUpdate();
        }
    }
}
