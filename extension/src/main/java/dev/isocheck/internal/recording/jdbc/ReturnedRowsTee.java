package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The rows of a write's own {@code RETURNING} ({@code INSERT ... RETURNING id}), sent with every
 * column of its table added after the application's columns and hidden from it: the recorder reads
 * each written row as the application moves through the result ({@link ReadAlong}). The rows are
 * every row written once the result was read to its end; a result the application capped
 * ({@code setMaxRows}) is not, and leaves the table out.
 */
final class ReturnedRowsTee extends ReadAlong {

    /**
     * How a write with its own RETURNING is sent.
     *
     * @param write   the write, as if it had no RETURNING
     * @param sql     the statement to send: the application's, its table's columns added to its RETURNING
     * @param columns the table's columns added, lower case, in order
     */
    record Plan(Write write, String sql, List<String> columns) {
    }

    private final List<String> columns;
    private final ResultSet proxy;

    /**
     * @param capped whether the application capped the rows its statement returns, so that the
     *               rows read are not known to be every row written
     */
    ReturnedRowsTee(RecordedConnection connection, TransactionLog log, Plan plan, String sql, List<Map<String, Object>> rows,
                    ResultSet result, boolean capped, Statement statementProxy) throws SQLException {
        super(connection, log, plan.write(), sql, rows, statementProxy);
        this.columns = plan.columns();
        this.source = result;
        this.broken = capped;
        int total = result.getMetaData().getColumnCount();
        this.view = new HiddenView(new HiddenColumns("", total - columns.size(), columns, false, Map.of()), total);
        this.proxy = Proxies.create(ResultSet.class, this);
    }

    /** The result as the application sees it. */
    ResultSet forApplication() {
        return proxy;
    }

    @Override
    RowReader reader(ResultSet rs) throws SQLException {
        int total = rs.getMetaData().getColumnCount();
        List<String> names = new ArrayList<>(Collections.nCopies(total - columns.size(), (String) null));
        names.addAll(columns);
        return new RowReader(rs, names);
    }

    @Override
    boolean complete() {
        return !broken && exhausted;
    }

    @Override
    String incomplete() {
        return "the rows its RETURNING gave back were not all read (a capped result, or one read backwards)";
    }

    @Override
    String unread() {
        return "the application had not read the rows its RETURNING gave back to their end when the transaction ended";
    }
}
