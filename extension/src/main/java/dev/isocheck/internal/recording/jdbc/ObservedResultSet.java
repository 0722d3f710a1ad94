package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.WhereText;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A query's result as the application moves through it: each row it moves to becomes a read;
 * reading to the end makes the result a predicate read when the WHERE allows. Rows are read with
 * {@code getObject} when the cursor arrives on them, before the application reads any column, so
 * that {@code wasNull} still answers for the application's last call.
 */
final class ObservedResultSet implements InvocationHandler {

    private final ResultSet real;
    private final Statement statement;
    private final RecordedConnection connection;
    private final TransactionLog log;
    private final RowsRead read;
    private final AnalysedStatement analysed;
    private final List<Object> parameters;
    /** Whether {@code setMaxRows} may have cut the result short: then it is not every row the WHERE selects. */
    private final boolean capped;
    private RowReader reader;
    private boolean scrolled;
    private boolean done;
    /** Whether reading a row failed: the result is no longer observed. */
    private boolean broken;

    private ObservedResultSet(ResultSet real, Statement statement, RecordedConnection connection, TransactionLog log,
                              RowsRead read, AnalysedStatement analysed, List<Object> parameters, boolean capped) {
        this.capped = capped;
        this.real = real;
        this.statement = statement;
        this.connection = connection;
        this.log = log;
        this.read = read;
        this.analysed = analysed;
        this.parameters = parameters;
    }

    static ResultSet wrap(ResultSet real, Statement statement, RecordedConnection connection, TransactionLog log,
                          RowsRead read, AnalysedStatement analysed, List<Object> parameters, boolean capped) {
        return Proxies.create(ResultSet.class,
                new ObservedResultSet(real, statement, connection, log, read, analysed, parameters, capped));
    }

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, real, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        switch (method.getName()) {
            case "getStatement":
                return statement;
            case "next":
                return moved((Boolean) Proxies.call(real, method, args), true);
            case "previous", "first", "last", "absolute", "relative":
                scrolled = true;
                return moved((Boolean) Proxies.call(real, method, args), false);
            case "close":
                try {
                    return Proxies.call(real, method, args);
                } finally {
                    finished();
                }
            case "updateRow", "insertRow", "deleteRow":
                String table = analysed instanceof Query query ? query.table() : null;
                connection.observe(log, new LeftOut(Optional.ofNullable(table), "ResultSet." + method.getName(),
                        "rows changed through an updatable result are not seen"));
                return Proxies.call(real, method, args);
            default:
                return Proxies.call(real, method, args);
        }
    }

    private boolean moved(boolean onRow, boolean forward) throws SQLException {
        if (read == null || log == null || done || broken) {
            if (!onRow && forward) {
                finished();
            }
            return onRow;
        }

        try {
            if (onRow) {
                if (reader == null) {
                    reader = new RowReader(real, ((Query) analysed).columns());
                }
                var row = reader.row();
                synchronized (connection) {
                    read.add(row);
                }
            } else if (forward && !scrolled && !capped) {
                String predicate = predicate();
                synchronized (connection) {
                    read.exhausted(predicate);
                }
            }
        } catch (SQLException | RuntimeException e) {
            // The recorder could not read the row: it stops observing this result (fewer reads,
            // never a wrong one) and the application carries on as without it.
            broken = true;
        }
        if (!onRow && forward) {
            finished();
        }
        return onRow;
    }

    /** The WHERE as a predicate read, when the checker evaluates it exactly as the database did. */
    private String predicate() throws SQLException {
        Query query = (Query) analysed;
        if (query.limited()) {
            return null;
        }
        if (query.where() == null) {
            return "TRUE";
        }
        Optional<String> text = WhereText.of(query.where(), parameters);
        if (text.isEmpty()) {
            return null;
        }
        ParsedWhere parsed = WherePredicate.parse(text.get());
        if (!(parsed instanceof WherePredicate where)) {
            return null;
        }
        if (reader == null) {
            reader = new RowReader(real, query.columns());
        }
        for (String column : where.columns()) {
            if (!reader.exactlyComparable(column.toLowerCase(Locale.ROOT))) {
                return null;
            }
        }
        return text.get();
    }

    private void finished() {
        if (!done) {
            done = true;
            connection.resultDone(log);
        }
    }
}
