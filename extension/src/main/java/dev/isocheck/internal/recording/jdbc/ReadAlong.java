package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A result that carries a write's rows, which the recorder reads as the application moves
 * through it: the generated keys an application asked for ({@link GeneratedKeysTee}), or the rows
 * of its own {@code RETURNING} ({@link ReturnedRowsTee}), each sent with every column of the table
 * added and hidden from the application. What the application leaves unread is read when it gives
 * the result up (closes it, closes or re-executes the statement), which it cannot see; if the
 * transaction ends first, the rows are not all known and the table is left out.
 */
abstract class ReadAlong implements InvocationHandler {

    final RecordedConnection connection;
    final TransactionLog log;
    final Write write;
    final String sql;
    /** The rows of the write's observation, already in the transaction's log, filled here. */
    final List<Map<String, Object>> rows;
    final Statement statementProxy;
    /** The driver's result the application's proxy answers from; {@code null} until it is had. */
    ResultSet source;
    /** What hides the recorder's columns, {@code null} when the application sees them all. */
    HiddenView view;
    private RowReader reader;
    /** Whether the rows read are not the rows written: a read failed, or the application scrolled. */
    boolean broken;
    /** Whether the result was read to its end. */
    boolean exhausted;
    private boolean resolved;

    ReadAlong(RecordedConnection connection, TransactionLog log, Write write, String sql,
              List<Map<String, Object>> rows, Statement statementProxy) {
        this.connection = connection;
        this.log = log;
        this.write = write;
        this.sql = sql;
        this.rows = rows;
        this.statementProxy = statementProxy;
    }

    /** The reader of the table's columns in a row of {@code rs}. */
    abstract RowReader reader(ResultSet rs) throws SQLException;

    /** Whether the rows read are every row written. */
    abstract boolean complete();

    /** The result to read what the application left from, when it never asked for it; {@code null} if none. */
    ResultSet unasked() throws SQLException {
        return null;
    }

    /** Why the table is left out when the rows read back are not every row written. */
    abstract String incomplete();

    /** Why the table is left out when the transaction ended before the application read its result to the end. */
    abstract String unread();

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, source, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        if (view != null) {
            if (method.getName().equals("getMetaData")) {
                return view.metaData(source.getMetaData());
            }
            args = view.arguments(method, args, source);
        }
        switch (method.getName()) {
            case "getStatement":
                return statementProxy;
            case "next":
                boolean onRow = (Boolean) Proxies.call(source, method, args);
                if (onRow) {
                    read();
                } else {
                    exhausted = true;
                    resolve();
                }
                return onRow;
            case "close":
                drain();
                return Proxies.call(source, method, args);
            case "previous", "first", "last", "absolute", "relative", "beforeFirst", "afterLast":
                // The recorder reads forward only.
                broken = true;
                return Proxies.call(source, method, args);
            default:
                return Proxies.call(source, method, args);
        }
    }

    private void read() {
        if (broken || resolved) {
            return;
        }
        try {
            if (reader == null) {
                reader = reader(source);
            }
            Map<String, Object> row = reader.row();
            broken |= reader.ambiguous();
            synchronized (connection) {
                rows.add(row);
            }
        } catch (SQLException | RuntimeException e) {
            broken = true;
        }
    }

    /**
     * Reads what the application left unread, now that it gives the result up: it closes it, or
     * closes or re-executes the statement (which closes it in the driver).
     */
    void drain() {
        if (resolved) {
            return;
        }
        try {
            if (source == null && !broken) {
                source = unasked();
            }
            while (!broken && source != null && !source.isClosed()) {
                if (!source.next()) {
                    exhausted = true;
                    break;
                }
                read();
            }
        } catch (SQLException | RuntimeException e) {
            broken = true;
        }
        resolve();
    }

    private void resolve() {
        if (resolved) {
            return;
        }
        resolved = true;
        connection.readAlongResolved(this, log, complete() ? null : leftOut(incomplete()));
    }

    /** The transaction ends with the result not all read: the rows written are not all known. */
    void transactionEnded(TransactionLog ended) {
        if (!resolved) {
            resolved = true;
            if (!complete()) {
                ended.add(leftOut(unread()));
            }
        }
    }

    private LeftOut leftOut(String reason) {
        return new LeftOut(Optional.of(write.table()), sql, reason);
    }
}
