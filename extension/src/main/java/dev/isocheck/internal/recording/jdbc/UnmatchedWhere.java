package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An UPDATE or DELETE sent as written, whose changes the database's log records: when it changes
 * no row, every row it looked at (each in the version it judged: its snapshot's, or at READ
 * COMMITTED the newest one it waited for) failed its WHERE, which is a predicate read of that
 * WHERE that returned nothing. The log shows what a write changed, never what it matched and
 * left alone, so without this a {@code DELETE ... WHERE v = 20} that deleted nothing would read
 * nothing at all (Hermitage's G-single with a write predicate, PostgreSQL's READ COMMITTED
 * re-check). The read is put among the transaction's reads before the statement runs, empty and
 * open, and becomes the predicate read once the update count says 0; any other count, or none,
 * leaves it empty (no operation).
 *
 * <p>Recorded only where the checker evaluates the WHERE exactly as the database did
 * ({@link ExactWhere}), over a table whose key and columns are known, whose rows row security
 * does not hide, and whose count of 0 says the WHERE matched nothing (on PostgreSQL no trigger,
 * which may skip a row it matched, no rule, which answers the count itself; on MariaDB a driver
 * that counts the rows found: {@link RecordedConnection#zeroMeansMatchedNothing}), named as the
 * connection's own, and for a write without LIMIT or ORDER BY.
 */
final class UnmatchedWhere {

    private final RecordedConnection connection;
    private final RowsRead read;
    private final String where;

    private UnmatchedWhere(RecordedConnection connection, RowsRead read, String where) {
        this.connection = connection;
        this.read = read;
        this.where = where;
    }

    /**
     * The read {@code write} makes if it changes nothing, observed in {@code log} now; empty when
     * it cannot be recorded.
     *
     * @param parameters the parameters bound, by index (0 unused); empty for SQL text
     */
    static Optional<UnmatchedWhere> of(RecordedConnection connection, TransactionLog log, Write write, String sql,
                                       List<Object> parameters) {
        if (log == null || write.limited() || write.kind() != WriteKind.UPDATE && write.kind() != WriteKind.DELETE
                || connection.dialect().isMysql() && dev.isocheck.internal.recording.sql.SqlAnalyzer.writesQualifiedTable(sql)) {
            return Optional.empty();
        }
        Optional<TableColumns> table = connection.knownColumnsOf(write.table());
        if (table.isEmpty() || table.get().key().isEmpty() || table.get().rowSecurity()
                || !connection.zeroMeansMatchedNothing(write.table())) {
            return Optional.empty();
        }
        ExactWhere exact = ExactWhere.of(write.where(), parameters,
                table.get()::comparedExactly);
        if (exact.where() == null) {
            return Optional.empty();
        }
        RowsRead read = new RowsRead(write.table(), Map.of(), false);
        connection.observe(log, read);
        return Optional.of(new UnmatchedWhere(connection, read, exact.where()));
    }

    /** The statement changed {@code count} rows ({@code -1}: not known). */
    void wrote(long count) {
        synchronized (connection) {
            // On MySQL and MariaDB an IGNORE may have skipped a row it matched (a foreign key
            // restricting it), counting 0 and leaving a warning: then it is no read of nothing.
            if (count == 0 && (!connection.dialect().isMysql() || connection.warnings() == 0)) {
                read.exhausted(where);
            }
            read.closed();
        }
    }
}
