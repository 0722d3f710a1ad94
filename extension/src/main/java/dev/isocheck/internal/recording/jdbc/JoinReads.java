package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Joined;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;

/**
 * The reads of a join, from the columns the recorder added to it ({@link HiddenColumns#join}):
 * each row returned is a read of each table's row it was made of (none for the outer side of a
 * LEFT JOIN that matched nothing, whose key is NULL), put among the transaction's operations as
 * one read per table, where the statement ran.
 *
 * <p>Read to its end, a join is exact where nothing could have been left out unseen:
 * <ul>
 *   <li>the FROM's table, when every join is a LEFT JOIN (which keeps each of its rows) and the
 *       WHERE names its columns alone and is one the checker evaluates exactly: its rows are then
 *       the predicate read of that WHERE;</li>
 *   <li>a joined table, when it is joined on its whole primary key
 *       ({@code LEFT JOIN shift s ON s.id = d.shift_id}, as an ORM fetches a many-to-one
 *       association): each row of the others matches at most one of its rows, which the join
 *       returned.</li>
 * </ul>
 * Anything else is checked as the rows returned, and listed: a row the join could have matched
 * and did not (a phantom) goes unseen.
 */
final class JoinReads {

    private final RecordedConnection connection;
    private final TransactionLog log;
    private final Joined joined;
    private final List<Object> parameters;
    private final HiddenColumns hidden;
    private final List<RowsRead> reads = new ArrayList<>();
    private final List<Optional<TableColumns>> tables = new ArrayList<>();
    private List<RowReader> readers;
    /** The keys each table's rows were read with already: one read of a row per statement. */
    private final List<Set<String>> seen = new ArrayList<>();

    JoinReads(RecordedConnection connection, TransactionLog log, Joined joined, List<Object> parameters, HiddenColumns hidden) {
        this.connection = connection;
        this.log = log;
        this.joined = joined;
        this.parameters = parameters;
        this.hidden = hidden;
        for (Joined.Source source : joined.sources()) {
            RowsRead read = new RowsRead(source.table(), Map.of(), false);
            reads.add(read);
            tables.add(connection.knownColumnsOf(source.table()));
            seen.add(new HashSet<>());
            connection.observe(log, read);
        }
    }

    /** Reads the row the result {@code rs} is on. */
    void add(ResultSet rs) throws SQLException {
        if (readers == null) {
            readers = readers(rs);
        }
        for (int s = 0; s < reads.size(); s++) {
            Map<String, Object> row = readers.get(s).row();
            Optional<TableColumns> table = tables.get(s);
            if (table.isEmpty() || readers.get(s).ambiguous()) {
                continue;
            }
            Optional<String> key = dev.isocheck.internal.recording.RecordedTransaction.key(reads.get(s).table(),
                    table.get().key(), row);
            // No key: the outer side of a LEFT JOIN that matched nothing, not a row.
            if (key.isPresent() && seen.get(s).add(key.get())) {
                synchronized (connection) {
                    reads.get(s).add(row);
                }
            }
        }
    }

    private List<RowReader> readers(ResultSet rs) throws SQLException {
        int total = rs.getMetaData().getColumnCount();
        int visible = total - hidden.columns().size();
        List<RowReader> made = new ArrayList<>();
        for (int s = 0; s < reads.size(); s++) {
            List<String> names = new ArrayList<>(Collections.nCopies(total, (String) null));
            for (int i = 0; i < hidden.columns().size(); i++) {
                if (hidden.sources().get(i) == s) {
                    names.set(visible + i, hidden.columns().get(i));
                }
            }
            made.add(new RowReader(rs, names));
        }
        return made;
    }

    /**
     * The application read the result to its end ({@code cut}: though capped, scrolled, or
     * limited, so that it is not every row the statement selects).
     */
    void exhausted(boolean cut) {
        List<String> approximate = new ArrayList<>();
        String firstPredicate = cut || joined.limited() ? null : firstPredicate();
        synchronized (connection) {
            reads.get(0).exhausted(firstPredicate);
            for (RowsRead read : reads) {
                read.closed();
            }
        }
        if (firstPredicate == null && !pointLookupFound()) {
            approximate.add(joined.sources().get(0).table());
        }
        for (int s = 1; s < reads.size(); s++) {
            if (cut || joined.limited() || !joinedOnItsKey(s)) {
                approximate.add(joined.sources().get(s).table());
            }
        }
        if (!approximate.isEmpty() && log != null) {
            log.notModelled(new NotModelled("the reads of " + String.join(", ", new java.util.LinkedHashSet<>(approximate))
                    + " in a join" + (joined.where() == null ? "" : " WHERE " + joined.where()), "checked as the rows returned, not as a predicate (a row the join could have"
                    + " matched and did not, a phantom, goes unseen)"));
        }
    }

    /** The result was given up before its end: what was read stays item reads. */
    void closed() {
        synchronized (connection) {
            for (RowsRead read : reads) {
                read.closed();
            }
        }
    }

    /**
     * The WHERE as a predicate read of the FROM's table, where its rows are every row that WHERE
     * selects: every join a LEFT JOIN, the WHERE naming that table's columns alone and evaluated
     * by the checker exactly; else {@code null}.
     */
    private String firstPredicate() {
        Optional<TableColumns> table = tables.get(0);
        if (!joined.keepsEveryRowOfTheFirst() || table.isEmpty() || !onlyColumnsOf(joined.where(), 0)) {
            return null;
        }
        // By the catalog's types: the result may have no row to tell them.
        ExactWhere exact = ExactWhere.of(joined.where(), parameters, (column, ordered) -> table.get().comparedExactly(column, ordered));
        return exact.where();
    }

    /**
     * Whether the FROM's table was read by the whole of its key and its row was returned: the
     * item read of it is exact, whatever the joins.
     */
    private boolean pointLookupFound() {
        Optional<TableColumns> table = tables.get(0);
        return table.isPresent() && !reads.get(0).rows().isEmpty() && onlyColumnsOf(joined.where(), 0)
                && SqlAnalyzer.fixesOnly(joined.where(), table.get().key());
    }

    /** Whether every column {@code e} names is of source {@code s}: qualified by its alias, or unqualified and its. */
    private boolean onlyColumnsOf(Expression e, int s) {
        if (e == null) {
            return true;
        }
        Joined.Source source = joined.sources().get(s);
        Optional<TableColumns> table = tables.get(s);
        boolean[] ok = {true};
        e.accept(new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column column, S context) {
                String qualifier = SqlAnalyzer.qualifierOf(column);
                String name = SqlAnalyzer.columnName(column);
                if (qualifier != null ? !qualifier.equals(source.alias()) || column.getTable().getSchemaName() != null
                        : table.isEmpty() || !table.get().columns().containsKey(name) || anotherHas(s, name)) {
                    ok[0] = false;
                }
                return null;
            }

            @Override
            public <S> Void visit(net.sf.jsqlparser.statement.select.ParenthesedSelect select, S context) {
                ok[0] = false;
                return null;
            }
        }, null);
        return ok[0];
    }

    /** Whether a source other than {@code s} has a column {@code name} (or its columns are unknown). */
    private boolean anotherHas(int s, String name) {
        for (int other = 0; other < tables.size(); other++) {
            if (other != s && (tables.get(other).isEmpty() || tables.get(other).get().columns().containsKey(name))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether source {@code s} is joined on its whole primary key: its ON is nothing but
     * equalities of each of its key columns (qualified by its alias) with a column of a table
     * named before it, so that each row of the others matches at most one of its rows.
     */
    private boolean joinedOnItsKey(int s) {
        Joined.Source source = joined.sources().get(s);
        Optional<TableColumns> table = tables.get(s);
        if (source.on() == null || table.isEmpty()) {
            return false;
        }
        Set<String> earlier = new HashSet<>();
        for (int i = 0; i < s; i++) {
            earlier.add(joined.sources().get(i).alias());
        }
        Set<String> keyed = new HashSet<>();
        for (Expression conjunct : SqlAnalyzer.conjunctsOf(source.on())) {
            if (!(conjunct instanceof EqualsTo eq && eq.getLeftExpression() instanceof Column left
                    && eq.getRightExpression() instanceof Column right)) {
                return false;
            }
            Optional<String> own = ownKeyColumn(left, source.alias(), table.get()).filter(c -> qualifiedBy(right, earlier));
            Optional<String> other = ownKeyColumn(right, source.alias(), table.get()).filter(c -> qualifiedBy(left, earlier));
            if (own.isEmpty() && other.isEmpty()) {
                return false;
            }
            keyed.add(own.orElseGet(other::get));
        }
        return keyed.containsAll(table.get().key());
    }

    private static Optional<String> ownKeyColumn(Column column, String alias, TableColumns table) {
        if (!alias.equals(SqlAnalyzer.qualifierOf(column))) {
            return Optional.empty();
        }
        String name = SqlAnalyzer.columnName(column);
        return table.key().contains(name) ? Optional.of(name) : Optional.empty();
    }

    private static boolean qualifiedBy(Column column, Set<String> aliases) {
        String qualifier = SqlAnalyzer.qualifierOf(column);
        return qualifier != null && aliases.contains(qualifier);
    }
}
