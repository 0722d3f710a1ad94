package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.internal.recording.Recording;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.largeobject.LargeObject;
import org.postgresql.largeobject.LargeObjectManager;

/**
 * The recorder is invisible where the application does what the recorder could trip over: a
 * role with fewer rights, a table with rules, a statement ending in a comment, statements that
 * fail, COPY and large objects through the driver's own API, pgjdbc's {@code autosave}. Each
 * construct runs on a fresh schema unrecorded, then recorded, twice in a row each time (the second
 * run meets tables the recorder has looked up by then), and must observe exactly the same: rows,
 * update counts, generated keys, result metadata, warnings, and each failure's SQLState and message.
 * On PostgreSQL 18 and 17, with writes from the statements and with writes from logical decoding.
 */
class PostgresInvisibilityConstructsTests {

    /** Writes from the statements. */
    @Nested
    class FromTheStatements extends Constructs {

        @Override
        PostgresDatabase server() throws Throwable {
            return PostgresDatabase.get();
        }
    }

    /** Writes from logical decoding. */
    @Nested
    class FromTheLog extends Constructs {

        @Override
        PostgresDatabase server() throws Throwable {
            return PostgresDatabase.logical();
        }
    }

    /** Writes from the statements, on PostgreSQL 17. */
    @Nested
    class FromTheStatementsOn17 extends Constructs {

        @Override
        PostgresDatabase server() throws Throwable {
            return PostgresDatabase.release17(false);
        }
    }

    /** Writes from logical decoding, on PostgreSQL 17. */
    @Nested
    class FromTheLogOn17 extends Constructs {

        @Override
        PostgresDatabase server() throws Throwable {
            return PostgresDatabase.release17(true);
        }
    }

    /** The constructs, on one server. */
    abstract static class Constructs {

        abstract PostgresDatabase server() throws Throwable;

        /** What a construct does, writing down everything it observes. */
        @FunctionalInterface
        interface Work {
            void run(DataSource ds, Seen seen) throws Exception;
        }

        @Test
        void aRoleThatMayOnlyInsertAndUpdateOneColumn() throws Throwable {
            String setUp = "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'clerk') THEN"
                    + " CREATE ROLE clerk LOGIN; END IF; END $$";
            sameSeen(server().as("clerk"), (ds, seen) -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    seen.update(s, "INSERT INTO ledger (id, owner, amount) VALUES (10, 'clerk', 5)");
                    seen.update(s, "UPDATE ledger SET amount = 6 WHERE id = 10");
                    seen.update(s, "DELETE FROM ledger WHERE id = 10");
                    seen.query(s, "SELECT amount FROM ledger WHERE id = 1");
                    seen.query(s, "SELECT id FROM ledger WHERE id = 1");
                    seen.query(s, "SELECT count(*) FROM ledger");
                }
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (PreparedStatement p = c.prepareStatement("INSERT INTO ledger (id, owner, amount) VALUES (?, ?, ?)")) {
                        p.setInt(1, 11);
                        p.setString(2, "clerk");
                        p.setInt(3, 7);
                        seen.add("prepared insert", () -> p.executeUpdate());
                    }
                    try (PreparedStatement p = c.prepareStatement("UPDATE ledger SET amount = ? WHERE id = ?")) {
                        p.setInt(1, 8);
                        p.setInt(2, 11);
                        seen.add("prepared update", () -> p.executeUpdate());
                    }
                    c.commit();
                }
            }, setUp, "GRANT INSERT ON ledger TO clerk", "GRANT SELECT (id), UPDATE (amount) ON ledger TO clerk");
        }

        @Test
        void tablesWithRules() throws Throwable {
            sameSeen(server().dataSource(), (ds, seen) -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    seen.update(s, "INSERT INTO diverted (id, v) VALUES (1, 1)");
                    seen.update(s, "UPDATE ledger SET amount = amount + 1 WHERE id = 1");
                    seen.query(s, "SELECT * FROM diverted_log ORDER BY id");
                    seen.query(s, "SELECT * FROM ledger_log ORDER BY id");
                    seen.update(s, "DELETE FROM diverted WHERE id = 1");
                }
            }, "CREATE RULE divert AS ON INSERT TO diverted DO INSTEAD INSERT INTO diverted_log VALUES (NEW.id, NEW.v)",
                    "CREATE RULE keep AS ON UPDATE TO ledger DO ALSO INSERT INTO ledger_log VALUES (NEW.id, NEW.amount)",
                    "CREATE RULE nothing AS ON DELETE TO diverted DO INSTEAD NOTHING");
        }

        @Test
        void statementsEndingInACommentOrASemicolon() throws Throwable {
            sameSeen(server().dataSource(), (ds, seen) -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    seen.update(s, "UPDATE ledger SET amount = amount + 1 WHERE id = 1 -- a note");
                    seen.update(s, "UPDATE ledger SET amount = amount + 1 WHERE id = 1; -- a note");
                    seen.update(s, "/* why */ UPDATE ledger SET amount = amount + 1 WHERE id = 1 /* done */");
                    seen.update(s, "INSERT INTO ledger (id, owner, amount) VALUES (20, 'x', 1) -- a note");
                    seen.query(s, "SELECT amount FROM ledger WHERE id = 1 -- a note");
                    seen.query(s, "SELECT amount FROM ledger WHERE id = 1;");
                    seen.query(s, "SELECT amount FROM ledger WHERE id = 1 ; -- a note\n");
                    seen.query(s, "SELECT count(*) FROM ledger -- a note");
                }
                try (Connection c = ds.getConnection();
                     PreparedStatement p = c.prepareStatement("SELECT amount FROM ledger WHERE id = ? -- a note")) {
                    p.setInt(1, 1);
                    seen.add("prepared query", () -> rows(p.executeQuery()));
                }
            });
        }

        @Test
        void statementsThatFail() throws Throwable {
            sameSeen(server().dataSource(), (ds, seen) -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    seen.update(s, "INSERT INTO ledger (id, owner, amount) VALUES (1, 'again', 1)");
                    seen.update(s, "UPDATE ledger SET amount = amount / 0 WHERE id = 1");
                    seen.update(s, "UPDATE ledger SET nowhere = 1 WHERE id = 1");
                    seen.update(s, "UPDATE ledger SET amount = 1 WHERE");
                    seen.update(s, "DELETE FROM ledger WHERE id = 'one'");
                    seen.query(s, "SELECT amount FROM ledger WHERE id = 1 ORDER BY 2");
                    seen.query(s, "SELECT amount, nowhere FROM ledger WHERE id = 1");
                    seen.query(s, "SELECT amount / 0 FROM ledger WHERE id = 1");
                    seen.query(s, "SELECT amount FROM ledger WHERE id = 1 GROUP BY 3");
                }
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        seen.update(s, "UPDATE ledger SET amount = 2 WHERE id = 2");
                        seen.update(s, "INSERT INTO ledger (id, owner, amount) VALUES (2, 'again', 1)");
                        seen.query(s, "SELECT amount FROM ledger WHERE id = 2");
                    }
                    seen.add("commit", () -> {
                        c.commit();
                        return "done";
                    });
                }
            });
        }

        @Test
        void copyAndLargeObjectsThroughTheDriversOwnApi() throws Throwable {
            sameSeen(server().dataSource(), (ds, seen) -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        seen.query(s, "SELECT amount FROM ledger WHERE id = 1");
                        seen.update(s, "DELETE FROM ledger WHERE id = 30");
                    }
                    PGConnection pg = c.unwrap(PGConnection.class);
                    seen.add("copy in", () -> pg.getCopyAPI().copyIn("COPY ledger FROM STDIN", new StringReader("30\tcopied\t3\n")));
                    LargeObjectManager objects = pg.getLargeObjectAPI();
                    long oid = objects.createLO();
                    try (LargeObject object = objects.open(oid, LargeObjectManager.WRITE)) {
                        object.write("a large object".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    }
                    try (Statement s = c.createStatement()) {
                        seen.update(s, "UPDATE ledger SET amount = 4 WHERE id = 30");
                        seen.query(s, "SELECT amount FROM ledger WHERE id = 30");
                    }
                    try (LargeObject object = objects.open(oid, LargeObjectManager.READ)) {
                        seen.add("large object", () -> new String(object.read(100), java.nio.charset.StandardCharsets.UTF_8));
                    }
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    seen.add("copy out", () -> pg.getCopyAPI().copyOut("COPY (SELECT * FROM ledger ORDER BY id) TO STDOUT", out)
                            + " " + out);
                    c.commit();
                    try (LargeObject object = objects.open(oid, LargeObjectManager.READ)) {
                        seen.add("large object after commit",
                                () -> new String(object.read(100), java.nio.charset.StandardCharsets.UTF_8));
                    } catch (SQLException e) {
                        seen.add("large object after commit " + e.getSQLState());
                    }
                    c.commit();
                    objects.unlink(oid);
                    c.commit();
                }
            });
        }

        @Test
        void anErrorCaughtUnderAutosave() throws Throwable {
            org.postgresql.ds.PGSimpleDataSource autosaving = new org.postgresql.ds.PGSimpleDataSource();
            try (Connection plain = server().dataSource().getConnection()) {
                autosaving.setURL(plain.getMetaData().getURL());
                autosaving.setUser(plain.getMetaData().getUserName());
            }
            autosaving.setAutosave(org.postgresql.jdbc.AutoSave.ALWAYS);
            sameSeen(autosaving, (ds, seen) -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        seen.update(s, "UPDATE ledger SET amount = 9 WHERE id = 1");
                        seen.update(s, "INSERT INTO ledger (id, owner, amount) VALUES (1, 'again', 1)");
                        seen.update(s, "UPDATE ledger SET amount = amount + 1 WHERE id = 2");
                        seen.query(s, "SELECT id, amount FROM ledger ORDER BY id");
                    }
                    c.commit();
                }
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    seen.query(s, "SELECT id, amount FROM ledger ORDER BY id");
                }
            });
        }

        /**
         * Runs {@code work} twice unrecorded and twice recorded in one recording, each pair on a
         * fresh schema (with {@code extra} statements run after it as the server's owner), and
         * asserts both see the same.
         */
        private void sameSeen(DataSource ds, Work work, String... extra) throws Throwable {
            Seen plain = new Seen();
            schema(extra);
            work.run(ds, plain);
            work.run(ds, plain);
            Seen recorded = new Seen();
            schema(extra);
            Recording recording = new Recording("invisible");
            DataSource wrapped = Isocheck.record(ds);
            try (Recording.Binding ignored = recording.bind()) {
                work.run(wrapped, recorded);
                work.run(wrapped, recorded);
            } finally {
                recording.finish();
            }
            assertThat(recorded.lines).containsExactlyElementsOf(plain.lines);
            assertThat(plain.lines).as("the construct did something").isNotEmpty();
        }

        private void schema(String... extra) throws Throwable {
            List<String> statements = new ArrayList<>(List.of(
                    "DROP TABLE IF EXISTS ledger, ledger_log, diverted, diverted_log CASCADE",
                    "CREATE TABLE ledger (id int PRIMARY KEY, owner text, amount int)",
                    "INSERT INTO ledger VALUES (1, 'alice', 100), (2, 'bob', 100)",
                    "CREATE TABLE ledger_log (id int, amount int)",
                    "CREATE TABLE diverted (id int PRIMARY KEY, v int)",
                    "CREATE TABLE diverted_log (id int, v int)"));
            statements.addAll(List.of(extra));
            server().run(statements.toArray(String[]::new));
        }
    }

    /** What a construct observed, in order. */
    static final class Seen {

        final List<String> lines = new ArrayList<>();

        void add(String line) {
            lines.add(line);
        }

        void add(String what, java.util.concurrent.Callable<Object> call) {
            try {
                lines.add(what + " " + call.call());
            } catch (SQLException e) {
                lines.add(what + " failed " + e.getSQLState() + " " + e.getMessage());
            } catch (Exception e) {
                lines.add(what + " failed " + e);
            }
        }

        void update(Statement s, String sql) {
            add(sql, () -> s.executeUpdate(sql) + " " + s.getUpdateCount() + " " + warnings(s.getWarnings()));
        }

        void query(Statement s, String sql) {
            add(sql, () -> rows(s.executeQuery(sql)));
        }
    }

    static String rows(ResultSet rs) throws SQLException {
        StringBuilder out = new StringBuilder();
        ResultSetMetaData meta = rs.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            out.append(meta.getColumnLabel(i)).append(':').append(meta.getColumnTypeName(i)).append(' ');
        }
        while (rs.next()) {
            out.append('[');
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                out.append(rs.getString(i)).append(i < meta.getColumnCount() ? "," : "");
            }
            out.append(']');
        }
        rs.close();
        return out.toString();
    }

    static String warnings(SQLWarning warning) {
        StringBuilder out = new StringBuilder();
        for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
            out.append(w.getSQLState()).append(' ').append(w.getMessage()).append(';');
        }
        return out.toString();
    }
}
