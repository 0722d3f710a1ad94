package dev.isocheck.internal.recording.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.update.Update;

/**
 * The reads inside a write that are known from what the write did: a subquery that must have
 * found nothing for the write to write a row. The double booking
 * <pre>
 * INSERT INTO bookings (room, day, guest) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE room = ? AND day = ?)
 * </pre>
 * inserted its row only if no booking of that room and day was there: had it inserted one, its
 * subquery ranged over {@code room = ? AND day = ?} and found nothing, a predicate read that
 * returned no row. Two such bookings that both insert, each not seeing the other's, are the
 * anomaly the check then catches.
 *
 * <p>A subquery counts when it is a conjunct of the WHERE that decides whether the write writes
 * (the query of an {@code INSERT ... SELECT}, an UPDATE's or a DELETE's own WHERE), has the form
 * {@code NOT EXISTS (SELECT ... FROM t WHERE p)} or {@code (SELECT count(*) FROM t WHERE p) = 0}
 * ({@code < 1}, {@code <= 0}, either way round), reads one table with nothing that could change
 * which rows it returns besides {@code p} (no join, grouping, limit, locking clause, set-returning
 * projection), and is not correlated: every column of {@code p} belongs to {@code t}, which the
 * caller checks against the table's columns ({@link Subquery#unqualified()}), since SQL resolves
 * an unqualified name to the innermost table that has it. An uncorrelated subquery is evaluated
 * once for the statement, so every row the write wrote saw it empty.
 *
 * <p>Nothing is said when the write wrote nothing: then some conjunct was false, and which one is
 * not known. The statement's reads are then listed as not checked, as any other read inside a
 * statement is ({@link UnseenReads}).
 */
public final class FoundNothing {

    /**
     * One subquery that found nothing whenever the write wrote.
     *
     * @param table       the table it ranges over, named as the recorder names tables
     * @param where       its WHERE, {@code null} for none (it found the table empty)
     * @param unqualified the columns its WHERE names without a qualifier, lower case: each must be
     *                    a column of {@code table}, or the subquery is correlated with the write
     */
    public record Subquery(String table, Expression where, Set<String> unqualified) {
    }

    /**
     * What a write's subqueries say when it wrote a row.
     *
     * @param subqueries the subqueries that found nothing
     * @param every      whether they are all the statement reads besides its own rows: no other
     *                   subquery, no table in an {@code INSERT ... SELECT}'s FROM, no function the
     *                   recorder does not know
     */
    public record Analysis(List<Subquery> subqueries, boolean every) {
    }

    private static final SqlTextCache<Optional<Analysis>> CACHE = new SqlTextCache<>();
    private static final Pattern SELECT = Pattern.compile("(?i)\\bSELECT\\b");
    /** Functions an INSERT's query may compute its row with: none of them aggregates rows or returns sets. */
    private static final Set<String> SCALAR = Set.of("coalesce", "nullif", "lower", "upper", "now", "concat",
            "greatest", "least", "gen_random_uuid", "random_uuid", "nextval", "current_date", "current_timestamp",
            "localtimestamp", "trim", "abs", "round");

    private FoundNothing() {
    }

    /** The subqueries of {@code sql} that found nothing if it wrote a row; empty when none, or when it is not such a write. */
    public static Optional<Analysis> of(String sql) {
        return CACHE.computeIfAbsent(sql, text -> {
            try {
                return analyse(text);
            } catch (RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    private static Optional<Analysis> analyse(String sql) throws RuntimeException {
        List<Statement> statements;
        try {
            statements = RecentParses.statements(sql);
        } catch (JSQLParserException e) {
            return Optional.empty();
        }
        if (statements.size() != 1) {
            return Optional.empty();
        }
        Statement statement = statements.get(0);
        Expression deciding;
        boolean otherReads;
        int ownSelects = 0;
        if (statement instanceof Insert insert) {
            if (insert.getWithItemsList() != null || !(insert.getSelect() instanceof PlainSelect select)
                    || !rowPerEvaluation(select)) {
                return Optional.empty();
            }
            deciding = select.getWhere();
            otherReads = select.getFromItem() != null;
            ownSelects = 1;
        } else if (statement instanceof Update update) {
            if (update.getWithItemsList() != null) {
                return Optional.empty();
            }
            deciding = update.getWhere();
            otherReads = update.getFromItem() != null || notEmpty(update.getJoins()) || notEmpty(update.getStartJoins());
        } else if (statement instanceof Delete delete) {
            if (delete.getWithItemsList() != null || delete.getTables() != null && !delete.getTables().isEmpty()) {
                return Optional.empty();
            }
            deciding = delete.getWhere();
            otherReads = notEmpty(delete.getUsingList()) || notEmpty(delete.getJoins());
        } else {
            return Optional.empty();
        }
        List<Subquery> found = new ArrayList<>();
        for (Expression conjunct : SqlAnalyzer.conjunctsOf(deciding)) {
            emptySubquery(conjunct).ifPresent(found::add);
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        // Every SELECT in the text is the INSERT's own query or one of these: no other subquery
        // reads anything. (A literal that spells SELECT only makes this false, which costs a note.)
        long selects = SELECT.matcher(statement.toString()).results().count();
        boolean every = !otherReads && selects == ownSelects + found.size() && WriteSuspicion.unknownFunctions(sql).isEmpty();
        return Optional.of(new Analysis(List.copyOf(found), every));
    }

    /**
     * Whether an INSERT's query returns a row for each time its WHERE holds and no other: one
     * without grouping, aggregates, set-returning functions, DISTINCT or a limit (a
     * {@code SELECT count(*) ... WHERE false} still returns a row).
     */
    private static boolean rowPerEvaluation(PlainSelect select) {
        if (select.getGroupBy() != null || select.getHaving() != null || select.getDistinct() != null
                || select.getLimit() != null || select.getOffset() != null || select.getFetch() != null
                || select.getTop() != null || select.getWindowDefinitions() != null || select.getWithItemsList() != null) {
            return false;
        }
        for (SelectItem<?> item : select.getSelectItems()) {
            if (!scalar(item.getExpression())) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code e} computes one value from one row: no function outside {@link #SCALAR}, no subquery. */
    private static boolean scalar(Expression e) {
        boolean[] ok = {true};
        e.accept(new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Function function, S context) {
                String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
                if (!SCALAR.contains(name)) {
                    ok[0] = false;
                }
                return super.visit(function, context);
            }

            @Override
            public <S> Void visit(ParenthesedSelect select, S context) {
                ok[0] = false;
                return null;
            }

            @Override
            public <S> Void visit(Select select, S context) {
                ok[0] = false;
                return null;
            }

            @Override
            public <S> Void visit(net.sf.jsqlparser.expression.AnalyticExpression analytic, S context) {
                ok[0] = false;
                return null;
            }
        }, null);
        return ok[0];
    }

    /** The subquery {@code conjunct} says is empty, when it has one of the recognised forms. */
    private static Optional<Subquery> emptySubquery(Expression conjunct) {
        if (conjunct instanceof NotExpression not && !not.isExclamationMark()
                && SqlAnalyzer.unparenthesised(not.getExpression()) instanceof ExistsExpression exists && !exists.isNot()) {
            return subquery(exists.getRightExpression(), false);
        }
        if (conjunct instanceof ComparisonOperator comparison) {
            Expression left = SqlAnalyzer.unparenthesised(comparison.getLeftExpression());
            Expression right = SqlAnalyzer.unparenthesised(comparison.getRightExpression());
            if (left instanceof Select && saysZero(comparison, integer(right), false)) {
                return subquery(left, true);
            }
            if (right instanceof Select && saysZero(comparison, integer(left), true)) {
                return subquery(right, true);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether {@code count <op> n} (or {@code n <op> count}, {@code flipped}) holds of a count only
     * when it is 0.
     */
    private static boolean saysZero(ComparisonOperator comparison, Long n, boolean flipped) {
        if (n == null) {
            return false;
        }
        if (comparison instanceof EqualsTo) {
            return n == 0;
        }
        boolean less = flipped ? comparison instanceof GreaterThan : comparison instanceof MinorThan;
        boolean lessOrEqual = flipped ? comparison instanceof GreaterThanEquals : comparison instanceof MinorThanEquals;
        return less && n == 1 || lessOrEqual && n == 0;
    }

    private static Long integer(Expression e) {
        return e instanceof LongValue v ? v.getValue() : null;
    }

    /** The single-table, uncorrelated query {@code e} is, counting its rows when {@code counted}. */
    private static Optional<Subquery> subquery(Expression e, boolean counted) {
        Select select = e instanceof ParenthesedSelect p ? p.getSelect() : e instanceof Select s ? s : null;
        while (select instanceof ParenthesedSelect p) {
            select = p.getSelect();
        }
        if (!(select instanceof PlainSelect plain) || !(plain.getFromItem() instanceof Table table)
                || notEmpty(plain.getJoins()) || plain.getGroupBy() != null || plain.getHaving() != null
                || plain.getWithItemsList() != null || plain.getLimit() != null || plain.getOffset() != null
                || plain.getFetch() != null || plain.getTop() != null || plain.getFirst() != null || plain.getSkip() != null
                || plain.getForMode() != null || plain.getForUpdateTable() != null || plain.getWait() != null
                || plain.getWindowDefinitions() != null || plain.getIntoTables() != null || plain.getOracleHierarchical() != null
                || plain.getLateralViews() != null && !plain.getLateralViews().isEmpty()) {
            return Optional.empty();
        }
        String text = plain.toString().toUpperCase(Locale.ROOT);
        if (text.contains("TABLESAMPLE") || text.contains("SKIP LOCKED") || text.contains("SAMPLE")) {
            return Optional.empty();
        }
        if (table.getSampleClause() != null) {
            return Optional.empty();
        }
        if (counted ? !countsRows(plain) : !rowPerMatch(plain)) {
            return Optional.empty();
        }
        String alias = table.getAlias() != null ? table.getAlias().getName() : table.getName();
        Set<String> unqualified = new TreeSet<>();
        if (plain.getWhere() != null && !ownColumns(plain.getWhere(), SqlAnalyzer.unquotedName(alias), unqualified)) {
            return Optional.empty();
        }
        return Optional.of(new Subquery(SqlAnalyzer.tableName(table), plain.getWhere(), Set.copyOf(unqualified)));
    }

    /** Whether the projection is {@code count(*)} (or {@code count(1)}) alone: 0 exactly when no row matched. */
    private static boolean countsRows(PlainSelect plain) {
        if (plain.getSelectItems().size() != 1 || plain.getDistinct() != null
                || !(plain.getSelectItems().get(0).getExpression() instanceof Function f)
                || !"count".equalsIgnoreCase(f.getName()) || f.isDistinct() || f.getKeep() != null) {
            return false;
        }
        if (f.isAllColumns()) {
            return true;
        }
        var parameters = f.getParameters();
        return parameters != null && parameters.size() == 1
                && (parameters.get(0) instanceof AllColumns || parameters.get(0) instanceof LongValue);
    }

    /** Whether the projection returns one row per row matched: literals, parameters, columns or {@code *}. */
    private static boolean rowPerMatch(PlainSelect plain) {
        for (SelectItem<?> item : plain.getSelectItems()) {
            Expression x = item.getExpression();
            if (!(x instanceof AllColumns || x instanceof LongValue || x instanceof Column
                    || x instanceof net.sf.jsqlparser.expression.StringValue || x instanceof JdbcParameter
                    || x instanceof net.sf.jsqlparser.expression.NullValue)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every column {@code where} names is the subquery's own: qualified by its alias (or
     * its name), or unqualified (collected, for the caller to check against the table's columns);
     * and whether it holds no subquery of its own.
     */
    private static boolean ownColumns(Expression where, String alias, Set<String> unqualified) {
        boolean[] ok = {true};
        where.accept(new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column column, S context) {
                String qualifier = SqlAnalyzer.qualifierOf(column);
                if (qualifier != null) {
                    if (column.getTable().getSchemaName() != null || !qualifier.equals(alias)) {
                        ok[0] = false;
                    }
                } else {
                    unqualified.add(SqlAnalyzer.columnName(column));
                }
                return null;
            }

            @Override
            public <S> Void visit(ParenthesedSelect select, S context) {
                ok[0] = false;
                return null;
            }

            @Override
            public <S> Void visit(Select select, S context) {
                ok[0] = false;
                return null;
            }
        }, null);
        return ok[0];
    }

    private static boolean notEmpty(List<?> list) {
        return list != null && !list.isEmpty();
    }
}
