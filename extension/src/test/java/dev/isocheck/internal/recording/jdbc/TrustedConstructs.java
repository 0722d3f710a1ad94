package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * The differential suite of issue 28: ordinary database features that write where the
 * application's statement does not say (triggers, cascades, partitions, functions, TRUNCATE,
 * writable CTEs, several statements in one string, COPY), keys written as literals the database
 * reads otherwise, and outcomes a recorder can get wrong, each run serially, where every run is
 * correct. A transaction reads every table the construct touches, the construct runs, and another
 * transaction reads them all again: a write the recorder missed or got wrong makes the second
 * read look impossible, so a false alarm cannot hide. Every run must pass at strict
 * serializability; what each way of recording left out is asserted by the subclasses.
 */
abstract class TrustedConstructs {

    /** The plain data source of the database under test. */
    abstract TestDatabase database();

    /** A workload on the recorded data source. */
    @FunctionalInterface
    interface Work {
        void run(DataSource recorded) throws Exception;
    }

    /**
     * Records a transaction reading {@code tables}, the construct, and a transaction reading them
     * again; fails when the check does not pass at strict serializability. First, where the
     * subclass {@linkplain #interleaved interleaves} constructs, the same construct inside a
     * reading transaction: a real anomaly, which must not pass silently.
     */
    RecordedHistory serially(String name, List<String> tables, Work construct) throws Exception {
        interleaved(name, tables, construct);
        return seriallyAlone(name, tables, construct);
    }

    /**
     * Runs {@code construct} between two reads of {@code tables} by one READ COMMITTED transaction,
     * which sees the construct's writes in its second read but not its first: not serializable.
     * Subclasses assert what the recorder made of it and put the data back as it was before; here,
     * nothing is run.
     */
    void interleaved(String name, List<String> tables, Work construct) throws Exception {
    }

    /** Records the reading transaction around {@code construct} ({@link #interleaved}). */
    RecordedHistory recordInterleaved(String name, List<String> tables, Work construct) throws Exception {
        return RecordedRun.record(name + ", interleaved", database().dataSource(), ds -> {
            try (Connection reader = ds.getConnection()) {
                reader.setAutoCommit(false);
                reader.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                readEach(reader, tables);
                construct.run(ds);
                readEach(reader, tables);
                reader.commit();
            }
        });
    }

    /** {@link #serially} without the interleaved run: for constructs that wait for every reader to end (TRUNCATE). */
    RecordedHistory seriallyAlone(String name, List<String> tables, Work construct) throws Exception {
        RecordedHistory recorded = RecordedRun.record(name, database().dataSource(), ds -> {
            readAll(ds, tables);
            construct.run(ds);
            readAll(ds, tables);
        });
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isSatisfied())
                .as("a correct serial run of %s raised an alarm:%n%s%nleft out: %s%nhistory:%n%s", name,
                        result.explanationText().orElse(String.valueOf(result.verdict())), recorded.notModelled(),
                        String.join("\n", recorded.history().transactions().stream().map(Object::toString).toList()))
                .isTrue();
        return recorded;
    }

    static void readAll(DataSource ds, List<String> tables) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            readEach(c, tables);
            c.commit();
        }
    }

    private static void readEach(Connection c, List<String> tables) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String table : tables) {
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }
            }
        }
    }

    /** Runs {@code sql} in one transaction on a recorded connection. */
    static Work inTransaction(String... sql) {
        return ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    for (String statement : sql) {
                        s.execute(statement);
                    }
                }
                c.commit();
            }
        };
    }

    /** Runs each of {@code sql} in auto-commit mode on a recorded connection. */
    static Work autoCommitted(String... sql) {
        return ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                for (String statement : sql) {
                    s.execute(statement);
                }
            }
        };
    }

    static List<String> subjects(RecordedHistory recorded) {
        return recorded.notModelled().stream().map(NotModelled::subject).toList();
    }
}
