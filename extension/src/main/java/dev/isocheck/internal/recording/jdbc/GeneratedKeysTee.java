package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The generated keys of a write whose application asked for keys, sent asking for every column
 * of the table as well (after the application's own, which are all it sees): the recorder reads
 * each full row as the application moves through them ({@link ReadAlong}).
 */
final class GeneratedKeysTee extends ReadAlong {

    private final long count;
    /** How many columns the application asked for, or -1 when it sees them all. */
    private final int visible;
    private final Statement driverStatement;
    private ResultSet proxy;

    GeneratedKeysTee(RecordedConnection connection, TransactionLog log, Write write, String sql,
                     List<Map<String, Object>> rows, long count, int visible, Statement driverStatement, Statement statementProxy) {
        super(connection, log, write, sql, rows, statementProxy);
        this.count = count;
        this.visible = visible;
        this.driverStatement = driverStatement;
    }

    /** The keys as the application sees them: the first time, the rows the recorder reads along. */
    ResultSet keysForApplication() throws SQLException {
        if (proxy != null) {
            // Asked again: the driver's answer, the recorder no longer reading along.
            ResultSet again = driverStatement.getGeneratedKeys();
            if (again == source) {
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
        source = driverStatement.getGeneratedKeys();
        if (source == null) {
            broken = true;
            return null;
        }
        view = visible < 0 ? null : hiding(source);
        proxy = Proxies.create(ResultSet.class, this);
        return proxy;
    }

    private HiddenView hiding(ResultSet rs) throws SQLException {
        int total = rs.getMetaData().getColumnCount();
        List<String> extra = java.util.Collections.nCopies(Math.max(0, total - visible), "");
        return new HiddenView(new HiddenColumns("", visible, extra, false, Map.of()), total);
    }

    @Override
    RowReader reader(ResultSet rs) throws SQLException {
        return new RowReader(rs, null);
    }

    @Override
    ResultSet unasked() throws SQLException {
        return driverStatement.getGeneratedKeys();
    }

    @Override
    boolean complete() {
        return !broken && rows.size() == count;
    }

    @Override
    String incomplete() {
        return "the generated keys did not give back every row written";
    }

    @Override
    String unread() {
        return "the application had not read its generated keys to their end when the transaction ended";
    }
}
