package dev.isocheck.internal.recording.sql;

import java.math.BigInteger;
import java.util.List;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Whether an UPDATE changes every row it matches, whatever the row held: it adds to (or takes
 * from) a NOT NULL integer column of its table a nonzero integer, as a literal or a parameter
 * bound as one ({@code SET balance = balance - ?}). Such a row never keeps its value (an overflow
 * fails the statement, under the strict SQL mode MariaDB and MySQL default to), so a log that
 * shows only changed rows shows every row it matched. Not an UPDATE IGNORE (which clamps an
 * overflow) or one that sets a column twice. A BEFORE trigger could undo the change; the caller
 * asks for tables without triggers.
 */
public final class ChangingAssignment {

    private ChangingAssignment() {
    }

    /**
     * Whether {@code sql}, a single-table UPDATE, changes every row it matches.
     *
     * @param parameters the parameters bound, by index (0 unused)
     * @param table      the table's columns as looked up
     */
    public static boolean changesEveryRow(String sql, List<Object> parameters, TableColumns table) {
        try {
            List<net.sf.jsqlparser.statement.Statement> statements = RecentParses.statements(sql);
            if (statements.size() != 1 || !(statements.get(0) instanceof Update update) || update.getJoins() != null
                    || update.getStartJoins() != null || update.getFromItem() != null || update.isModifierIgnore()) {
                // UPDATE IGNORE clamps an overflow instead of failing.
                return false;
            }
            java.util.Set<String> assigned = new java.util.HashSet<>();
            boolean changes = false;
            for (UpdateSet set : update.getUpdateSets()) {
                if (set.getColumns().size() != set.getValues().size()) {
                    return false;
                }
                for (int i = 0; i < set.getColumns().size(); i++) {
                    if (!assigned.add(SqlAnalyzer.columnName(set.getColumns().get(i)))) {
                        // SET v = v + 1, v = v - 1: the second undoes the first.
                        return false;
                    }
                    changes |= changes(set.getColumns().get(i), set.getValues().get(i), parameters, table);
                }
            }
            return changes;
        } catch (net.sf.jsqlparser.JSQLParserException | RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    private static boolean changes(Column target, Expression value, List<Object> parameters, TableColumns table) {
        String name = SqlAnalyzer.columnName(target);
        TableColumns.Column column = table.columns().get(name);
        if (column == null || !column.notNull() || !integer(column.type())) {
            return false;
        }
        if (!(value instanceof Addition) && !(value instanceof Subtraction)) {
            return false;
        }
        BinaryExpression arithmetic = (BinaryExpression) value;
        Expression left = arithmetic.getLeftExpression();
        Expression right = arithmetic.getRightExpression();
        if (same(left, name)) {
            return nonzero(right, parameters);
        }
        // c = 1 + c; never c = 1 - c, which keeps a row whose c is its half.
        return value instanceof Addition && same(right, name) && nonzero(left, parameters);
    }

    private static boolean same(Expression e, String column) {
        return e instanceof Column c && SqlAnalyzer.columnName(c).equals(column);
    }

    private static boolean nonzero(Expression e, List<Object> parameters) {
        if (e instanceof LongValue v) {
            return v.getBigIntegerValue().signum() != 0;
        }
        if (e instanceof JdbcParameter p && p.getIndex() != null && !p.isUseFixedIndex()
                && p.getIndex() >= 1 && p.getIndex() < parameters.size()) {
            Object bound = parameters.get(p.getIndex());
            return (bound instanceof Integer || bound instanceof Long || bound instanceof Short || bound instanceof Byte)
                    && ((Number) bound).longValue() != 0 || bound instanceof BigInteger big && big.signum() != 0;
        }
        return false;
    }

    private static boolean integer(int type) {
        return type == java.sql.Types.TINYINT || type == java.sql.Types.SMALLINT || type == java.sql.Types.INTEGER
                || type == java.sql.Types.BIGINT;
    }
}
