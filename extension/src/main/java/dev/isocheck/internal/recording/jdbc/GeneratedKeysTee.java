package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The generated keys of a write whose application asked for keys, sent asking for every column
 * of the table as well (after the application's own, which are all it sees): the recorder reads
 * each full row as the application moves through them. What the application leaves unread is read
 * when it gives the keys up (closes them, closes or re-executes the statement), which it cannot
 * see; if the transaction ends first, the rows are not all known and the table is left out.
 */
final class GeneratedKeysTee implements InvocationHandler {

    private final RecordedConnection connection;
    private final TransactionLog log;
    private final Write write;
    private final String sql;
    /** The rows of the write's observation, already in the transaction's log, filled here. */
    private final List<Map<String, Object>> rows;
    private final long count;
    /** How many columns the application asked for, or -1 when it sees them all. */
    private final int visible;
    private final Statement driverStatement;
    private final Statement statementProxy;
    private ResultSet keys;
    private HiddenView view;
    private RowReader reader;
    private ResultSet proxy;
    private boolean broken;
    private boolean resolved;

    GeneratedKeysTee(RecordedConnection connection, TransactionLog log, Write write, String sql,
                     List<Map<String, Object>> rows, long count, int visible, Statement driverStatement, Statement statementProxy) {
        this.connection = connection;
        this.log = log;
        this.write = write;
        this.sql = sql;
        this.rows = rows;
        this.count = count;
        this.visible = visible;
        this.driverStatement = driverStatement;
        this.statementProxy = statementProxy;
    }

    /** The keys as the application sees them: the first time, the rows the recorder reads along. */
    ResultSet keysForApplication() throws SQLException {
        if (proxy != null) {
            // Asked again: the driver's answer, the recorder no longer reading along.
            ResultSet again = driverStatement.getGeneratedKeys();
            if (again == keys) {
                broken = true;
            }
            HiddenView other = again == null || visible < 0 ? null : hiding(again);
            return again == null ? null : Proxies.create(ResultSet.class, (p, method, args) -> {
                Object common = Proxies.common(p, again, method, args);
                if (common != Proxies.NOT_COMMON) {
                    return common;
                }
                if (method.getName().equals("getStatement")) {
                    return statementProxy;
                }
                if (other != null && method.getName().equals("getMetaData")) {
                    return other.metaData(again.getMetaData());
                }
                return Proxies.call(again, method, other == null ? args : other.arguments(method, args, again));
            });
        }
        keys = driverStatement.getGeneratedKeys();
        if (keys == null) {
            broken = true;
            return null;
        }
        view = visible < 0 ? null : hiding(keys);
        proxy = Proxies.create(ResultSet.class, this);
        return proxy;
    }

    private HiddenView hiding(ResultSet rs) throws SQLException {
        int total = rs.getMetaData().getColumnCount();
        List<String> extra = java.util.Collections.nCopies(Math.max(0, total - visible), "");
        return new HiddenView(new HiddenColumns("", visible, extra, false, Map.of()), total);
    }

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, keys, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        if (view != null) {
            if (method.getName().equals("getMetaData")) {
                return view.metaData(keys.getMetaData());
            }
            args = view.arguments(method, args, keys);
        }
        switch (method.getName()) {
            case "getStatement":
                return statementProxy;
            case "next":
                boolean onRow = (Boolean) Proxies.call(keys, method, args);
                if (onRow) {
                    read();
                } else {
                    resolve();
                }
                return onRow;
            case "close":
                drain();
                return Proxies.call(keys, method, args);
            case "previous", "first", "last", "absolute", "relative", "beforeFirst", "afterLast":
                // The recorder reads forward only.
                broken = true;
                return Proxies.call(keys, method, args);
            default:
                return Proxies.call(keys, method, args);
        }
    }

    private void read() {
        if (broken || resolved) {
            return;
        }
        try {
            if (reader == null) {
                reader = new RowReader(keys, null);
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
     * Reads what the application left unread, now that it gives the keys up: it closes them, or
     * closes or re-executes the statement (which closes them in the driver).
     */
    void drain() {
        if (resolved) {
            return;
        }
        try {
            if (keys == null && !broken) {
                keys = driverStatement.getGeneratedKeys();
            }
            while (!broken && keys != null && !keys.isClosed() && keys.next()) {
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
        connection.keysResolved(this, log, complete() ? null : leftOut(
                "the generated keys did not give back every row written"));
    }

    private boolean complete() {
        return !broken && rows.size() == count;
    }

    /** The transaction ends with the keys not all read: the rows written are not all known. */
    void transactionEnded(TransactionLog ended) {
        if (!resolved) {
            resolved = true;
            if (!complete()) {
                ended.add(leftOut("the application had not read its generated keys to their end when the transaction ended"));
            }
        }
    }

    private LeftOut leftOut(String reason) {
        return new LeftOut(Optional.of(write.table()), sql, reason);
    }
}
