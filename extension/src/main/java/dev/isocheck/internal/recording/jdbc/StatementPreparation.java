package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.jdbc.PreparedMode.HiddenPlan;
import dev.isocheck.internal.recording.jdbc.PreparedMode.KeysAsRows;
import dev.isocheck.internal.recording.jdbc.PreparedMode.KeysReadAlong;
import dev.isocheck.internal.recording.jdbc.PreparedMode.Rewritten;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The application's {@code prepareStatement}: what the recorder prepares in its place, which is
 * the {@link PreparedMode} its recorded statement keeps. Each mode's statement is prepared only
 * where the driver accepts it; where it refuses, the next is tried, down to the statement as the
 * application wrote it, whose answer (or exception) the application then gets.
 */
final class StatementPreparation {

    private StatementPreparation() {
    }

    /**
     * Prepares what the application asked for: the rewritten write when the dialect has one and
     * the application asked for nothing the rewritten form would change (generated keys), the
     * original statement otherwise.
     */
    static PreparedStatement prepare(RecordedConnection connection, Connection real, Method method, Object[] args) throws Throwable {
        String sql = (String) args[0];
        AnalysedStatement analysed = StatementSupport.seen(connection, SqlAnalyzer.analyse(sql), sql, asPlainPrepare(args));
        if (analysed instanceof Write write && !connection.decodesWrites()) {
            connection.columnsOf(write.table());
        }
        if (reads(analysed) && asPlainPrepare(args)) {
            Optional<HiddenColumns> plan = connection.hiddenColumns(analysed, sql);
            if (plan.isPresent()) {
                Object[] planned = args.clone();
                planned[0] = plan.get().sql();
                PreparedStatement withHidden = null;
                try {
                    withHidden = (PreparedStatement) Proxies.call(real, method, planned);
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withHidden != null) {
                    return recorded(connection, withHidden, sql, new HiddenPlan(plan.get()));
                }
            }
        }
        if (!reads(analysed) && connection.decodesWrites()) {
            // The database's log records the writes: the statement is sent exactly as written.
            return recorded(connection, (PreparedStatement) Proxies.call(real, method, args), sql, PreparedMode.AS_WRITTEN);
        }
        if (analysed instanceof Write write && args.length == 1 && connection.dialect().returnsRowsAsGeneratedKeys()) {
            Optional<String[]> columns = connection.everyColumn(write.table());
            if (columns.isPresent()) {
                PreparedStatement withKeys = null;
                try {
                    withKeys = real.prepareStatement(sql, columns.get());
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withKeys != null) {
                    return recorded(connection, withKeys, sql, new KeysAsRows(write, new ApplicationPrepare(real, method, args)));
                }
            }
        }
        if (analysed instanceof Write write && args.length == 2) {
            Optional<Object> request = connection.keysRequest(write, args[1]);
            if (request.isPresent()) {
                PreparedStatement withKeys = null;
                try {
                    withKeys = request.get() instanceof String[] names ? real.prepareStatement(sql, names)
                            : real.prepareStatement(sql, (Integer) request.get());
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withKeys != null) {
                    int visible = args[1] instanceof String[] names ? names.length : -1;
                    return recorded(connection, withKeys, sql,
                            new KeysReadAlong(write, visible, new ApplicationPrepare(real, method, args)));
                }
            }
        }
        Optional<Write> returning = analysed instanceof AnalysedStatement.Opaque && asPlainPrepare(args)
                ? SqlAnalyzer.returningWrite(sql) : Optional.empty();
        if (returning.isPresent()) {
            // A RETURNING of the application's own: every column of the table is added to it, hidden.
            connection.columnsOf(returning.get().table());
            Optional<ReturnedRowsTee.Plan> plan = connection.rewriteReturning(returning.get(), sql);
            if (plan.isPresent()) {
                PreparedStatement withColumns = null;
                try {
                    withColumns = real.prepareStatement(plan.get().sql());
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withColumns != null) {
                    return recorded(connection, withColumns, sql, new Rewritten(new ApplicationPrepare(real, method, args), plan.get()));
                }
            }
        }
        Optional<String> rewrite = analysed instanceof Write write && asPlainPrepare(args)
                ? connection.rewrite(write, sql) : Optional.empty();
        if (rewrite.isPresent()) {
            PreparedStatement rewrittenStatement = null;
            try {
                rewrittenStatement = real.prepareStatement(rewrite.get());
            } catch (SQLException e) {
                // The original may be wrong too; if so, the application gets the original's exception below.
            }
            if (rewrittenStatement != null) {
                return recorded(connection, rewrittenStatement, sql, new Rewritten(new ApplicationPrepare(real, method, args)));
            }
        }
        PreparedStatement plain = (PreparedStatement) Proxies.call(real, method, args);
        return recorded(connection, plain, sql, PreparedMode.AS_WRITTEN);
    }

    /** Whether {@code analysed} is a query the recorder may add hidden columns to: of one table, an aggregate, or a join. */
    static boolean reads(AnalysedStatement analysed) {
        return analysed instanceof Query || analysed instanceof AnalysedStatement.Aggregate || analysed instanceof AnalysedStatement.Joined;
    }

    private static PreparedStatement recorded(RecordedConnection connection, PreparedStatement prepared, String sql,
                                              PreparedMode mode) {
        return RecordedStatement.wrap(new PreparedStatementLogic(connection, prepared, sql, mode), PreparedStatement.class);
    }

    /**
     * Whether a {@code prepareStatement} asks for nothing beyond the SQL: {@code (sql)}, or
     * {@code (sql, TYPE_FORWARD_ONLY, CONCUR_READ_ONLY)}, the defaults spelled out, as Jdbi
     * prepares every statement.
     */
    private static boolean asPlainPrepare(Object[] args) {
        return args.length == 1 || args.length == 3
                && Integer.valueOf(ResultSet.TYPE_FORWARD_ONLY).equals(args[1])
                && Integer.valueOf(ResultSet.CONCUR_READ_ONLY).equals(args[2]);
    }
}
