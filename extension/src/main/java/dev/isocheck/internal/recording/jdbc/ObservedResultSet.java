package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import dev.isocheck.internal.predicate.UnsupportedWhere;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Aggregate;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.ColumnValues;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.TableColumns;
import dev.isocheck.internal.recording.sql.WhereText;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

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
    /** How many rows the recorder has read of the result. */
    private long rowsReturned;
    private final AnalysedStatement analysed;
    private final List<Object> parameters;
    /** Whether {@code setMaxRows} may have cut the result short: then it is not every row the WHERE selects. */
    private final boolean capped;
    /** The columns the recorder added to the query, hidden from the application; {@code null} when none. */
    private final HiddenColumns hidden;
    private HiddenView view;
    private RowReader reader;
    private boolean scrolled;
    private boolean done;
    /** Whether reading a row failed: the result is no longer observed. */
    private boolean broken;
    /** A join's reads, table by table; {@code null} for any other query. */
    private final JoinReads joins;

    private ObservedResultSet(ResultSet real, Statement statement, RecordedConnection connection, TransactionLog log,
                              RowsRead read, AnalysedStatement analysed, List<Object> parameters, boolean capped,
                              HiddenColumns hidden) throws SQLException {
        this.capped = capped;
        this.hidden = hidden;
        this.view = hidden == null ? null : HiddenView.of(hidden, real);
        this.real = real;
        this.statement = statement;
        this.connection = connection;
        this.log = log;
        this.read = read;
        this.analysed = analysed;
        this.parameters = parameters;
        this.joins = analysed instanceof AnalysedStatement.Joined joined && hidden != null && hidden.sources() != null && log != null
                ? new JoinReads(connection, log, joined, parameters, hidden) : null;
    }

    static ResultSet wrap(ResultSet real, Statement statement, RecordedConnection connection, TransactionLog log,
                          RowsRead read, AnalysedStatement analysed, List<Object> parameters, boolean capped,
                          HiddenColumns hidden) throws SQLException {
        return Proxies.create(ResultSet.class,
                new ObservedResultSet(real, statement, connection, log, read, analysed, parameters, capped, hidden));
    }

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, real, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        if (view != null) {
            if (method.getName().equals("getMetaData")) {
                return view.metaData(real.getMetaData());
            }
            args = view.arguments(method, args, real);
        }
        switch (method.getName()) {
            case "getStatement":
                return statement;
            case "next":
                try {
                    return moved((Boolean) Proxies.call(real, method, args), true);
                } catch (SQLException e) {
                    // Fetching the next rows can fail at the server (a cursor read in batches): the
                    // transaction is then as doomed as after a failed statement.
                    connection.failedWhileFetching(e);
                    throw e;
                }
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
        if (joins != null && !done && !broken) {
            try {
                if (onRow) {
                    joins.add(real);
                } else if (forward) {
                    joins.exhausted(scrolled || capped);
                }
            } catch (SQLException | RuntimeException e) {
                // Fewer reads, never a wrong one: the recorder stops observing this result.
                broken = true;
            }
            if (!onRow && forward) {
                finished();
            }
            return onRow;
        }
        if (read == null || log == null || done || broken) {
            if (!onRow && forward) {
                finished();
            }
            return onRow;
        }

        try {
            if (analysed instanceof Aggregate aggregate) {
                if (onRow) {
                    aggregated(aggregate);
                }
            } else if (onRow) {
                if (reader == null) {
                    reader = new RowReader(real, columns());
                }
                var row = reader.row();
                synchronized (connection) {
                    read.add(row);
                }
                rowsReturned++;
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

    /** The table column of each result column, the hidden ones included; {@code null} for {@code *}. */
    private List<String> columns() {
        List<String> columns = ((Query) analysed).columns();
        if (hidden == null || columns == null) {
            return columns;
        }
        List<String> all = new java.util.ArrayList<>(columns);
        all.addAll(hidden.columns());
        return all;
    }

    /** The most rows an aggregate's read is recorded with. */
    static final int MAX_AGGREGATED_ROWS = dev.isocheck.internal.recording.sql.Dialect.AGGREGATED_ROWS_READ;

    /**
     * Reads MariaDB's aggregated arrays, JSON text: integers as {@code Integer}, {@code Long} or
     * {@code BigInteger}, decimals as {@code BigDecimal} with the scale they are written with.
     */
    private static final com.fasterxml.jackson.databind.ObjectReader JSON_ARRAY =
            new com.fasterxml.jackson.databind.ObjectMapper().readerFor(Object[].class)
                    .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /**
     * Reads the rows an aggregate ranged over from its hidden arrays, one array per column, the
     * n-th elements making the n-th row, and records them as the predicate read the aggregate was.
     */
    private void aggregated(Aggregate aggregate) throws SQLException {
        List<String> names = hidden.columns();
        Object[][] arrays = new Object[names.size()][];
        for (int i = 0; i < names.size(); i++) {
            Object value = real.getObject(view.hiddenIndex(i));
            if (value == null) {
                // No rows: SQL aggregates an empty set to NULL.
                arrays[i] = new Object[0];
            } else if (value instanceof java.sql.Array array && array.getArray() instanceof Object[] elements) {
                arrays[i] = elements;
            } else if (value instanceof Object[] elements) {
                arrays[i] = elements;
            } else if (value instanceof String json) {
                // MariaDB's JSON_ARRAYAGG; cut short (group_concat_max_len), it does not parse, and
                // the aggregate's reads are not recorded.
                try {
                    arrays[i] = JSON_ARRAY.readValue(json);
                } catch (java.io.IOException e) {
                    notChecked(aggregate, "the rows it ranged over did not come back as JSON: cut short (MariaDB's"
                            + " group_concat_max_len), or a ZEROFILL column's zeros");
                    return;
                }
            } else {
                notChecked(aggregate, "an aggregated column came back as " + value.getClass().getName() + ", not an array");
                return;
            }
            if (arrays[i].length != arrays[0].length) {
                notChecked(aggregate, "its aggregated columns came back of different lengths");
                return;
            }
        }
        if (arrays[0].length > MAX_AGGREGATED_ROWS) {
            // A read of that many rows would make the history too large to decide in a test's time.
            notChecked(aggregate, "an aggregate over more than " + MAX_AGGREGATED_ROWS + " rows");
            return;
        }
        List<java.util.Map<String, Object>> rows = new java.util.ArrayList<>();
        for (int r = 0; r < arrays[0].length; r++) {
            java.util.Map<String, Object> row = new java.util.LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                Object element = arrays[i][r];
                Integer type = hidden.types().get(names.get(i));
                if (element instanceof Number n && !(element instanceof java.math.BigDecimal) && type != null
                        && (type == java.sql.Types.DECIMAL || type == java.sql.Types.NUMERIC)) {
                    // A DECIMAL of scale 0 is written as an integer in JSON; the driver reads it as a BigDecimal.
                    element = new java.math.BigDecimal(n.toString());
                }
                Object json = ColumnValues.toJson(element);
                if (json != ColumnValues.UNSUPPORTED) {
                    row.put(names.get(i), json);
                }
            }
            rows.add(row);
        }
        String predicate = aggregatePredicate(aggregate);
        synchronized (connection) {
            rows.forEach(read::add);
            read.exhausted(predicate);
        }
    }

    /** Lists the aggregate's reads as not checked, and why: never a silent pass. */
    private void notChecked(Aggregate aggregate, String why) {
        if (log != null) {
            log.notModelled(new NotModelled("the reads of " + aggregate.table()
                    + (aggregate.where() == null ? "" : " WHERE " + aggregate.where()), "not checked: " + why));
        }
    }

    /** The aggregate's WHERE as a predicate read, when every column it mentions was aggregated and compares exactly. */
    private String aggregatePredicate(Aggregate aggregate) {
        if (aggregate.limited()) {
            return unchecked(aggregate.table(), aggregate.where(), "LIMIT, OFFSET or FETCH may leave rows out");
        }
        Optional<TableColumns> table = connection.knownColumnsOf(aggregate.table());
        ExactWhere exact = ExactWhere.of(aggregate.where(), parameters, (column, ordered) -> {
            Integer type = hidden.types().get(column);
            return type != null && (TableColumns.exactlyComparable(type) && (connection.booleansExact() || !TableColumns.isBoolean(type))
                    || table.isPresent() && table.get().comparedExactly(column, ordered));
        });
        return exact.where() != null ? exact.where() : unchecked(aggregate.table(), aggregate.where(), exact.reason());
    }

    /** The WHERE as a predicate read, when the checker evaluates it exactly as the database did. */
    private String predicate() throws SQLException {
        Query query = (Query) analysed;
        if (query.limited()) {
            return unchecked(query.table(), query.where(), "LIMIT, OFFSET or FETCH may leave rows out");
        }
        if (reader == null) {
            reader = new RowReader(real, columns());
        }
        Optional<TableColumns> table = connection.knownColumnsOf(query.table());
        if (table.isPresent() && query.isPointLookup(table.get().key()) && !table.get().rowSecurity()
                && (table.get().integerKey() || rowsReturned > 0)) {
            // The read of the row, or of its absence, is exact already. A key of text is not
            // keyed by what the WHERE says, and its absence is the predicate read of that WHERE;
            // but the row found is the one row the key equality can match (a primary key admits
            // no second row equal to it in the column's collation), and another could only match
            // once that one's key is deleted or changed: a write the read of it is ordered by.
            return null;
        }
        RowReader rows = reader;
        boolean booleansExact = connection.booleansExact();
        ExactWhere exact = ExactWhere.of(query.where(), parameters, (column, ordered) -> rows.exactlyComparable(column)
                && (booleansExact || !rows.isBoolean(column))
                || rows.isText(column) && table.isPresent() && table.get().comparedExactly(column, ordered))
                .unlessColumnsUnknown(table.isPresent() || connection.knowsColumnsOf(query.table()));
        return exact.where() != null ? exact.where() : unchecked(query.table(), query.where(), exact.reason());
    }

    /** Notes that a read's WHERE is not checked, and why; returns {@code null}, the absent predicate. */
    private String unchecked(String table, net.sf.jsqlparser.expression.Expression whereClause, String reason) {
        if (log != null) {
            log.notModelled(new NotModelled("the reads of " + table + (whereClause == null ? "" : " WHERE " + whereClause),
                    "checked as the rows returned, not as a predicate (a phantom goes unseen): " + reason));
        }
        return null;
    }

    private void finished() {
        if (!done) {
            done = true;
            if (read != null) {
                synchronized (connection) {
                    read.closed();
                }
            }
            if (joins != null) {
                joins.closed();
            }
            connection.resultDone(log);
        }
    }
}
