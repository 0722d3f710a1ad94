package dev.isocheck.internal.recording.sql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.update.Update;

/**
 * An UPDATE's WHERE that selects the same rows each time it is evaluated on the same rows: built
 * only of its table's columns (unqualified), literals, parameters, comparisons, {@code AND},
 * {@code OR}, {@code NOT}, {@code IN} lists, {@code BETWEEN}, {@code LIKE}, {@code IS NULL} and
 * integer arithmetic. No function (not even a deterministic one: {@code NOW()} is not), no
 * subquery (it reads other rows, which may change), no user variable. Classes are matched
 * exactly, so that a dialect's variant of one of them is refused.
 *
 * <p>For MySQL and MariaDB, whose UPDATE has no RETURNING: the rows such an UPDATE changed are
 * read back after it by its own WHERE, which still selects each of them when it changed none of
 * the columns the WHERE reads.
 *
 * @param text       the clause as SQL, each parameter a {@code ?}
 * @param parameters the statement's index of each {@code ?} of {@code text}, in order
 * @param columns    the columns it reads, lower case
 */
public record StableWhere(String text, List<Integer> parameters, Set<String> columns) {

    /** Deeper nesting is refused: the check must never exhaust the stack. */
    private static final int MAX_DEPTH = 200;

    private static final SqlTextCache<Optional<StableWhere>> CACHE = new SqlTextCache<>();

    /** Validates and copies. */
    public StableWhere {
        parameters = List.copyOf(parameters);
        columns = Set.copyOf(columns);
    }

    /**
     * The WHERE of the single-table UPDATE {@code sql} when it is stable; empty for any other
     * statement, an UPDATE of several tables or with ORDER BY or LIMIT, or a WHERE of anything else.
     */
    public static Optional<StableWhere> ofUpdate(String sql) {
        return CACHE.computeIfAbsent(sql, text -> {
            try {
                List<net.sf.jsqlparser.statement.Statement> statements = RecentParses.statements(text);
                if (statements.size() != 1 || !(statements.get(0) instanceof Update update) || update.getWhere() == null
                        || update.getJoins() != null || update.getStartJoins() != null || update.getFromItem() != null
                        || update.getOrderByElements() != null || update.getLimit() != null || update.getWithItemsList() != null
                        || update.getReturningClause() != null) {
                    return Optional.empty();
                }
                List<Integer> parameters = new ArrayList<>();
                Set<String> columns = new LinkedHashSet<>();
                if (!stable(update.getWhere(), parameters, columns, 0)) {
                    return Optional.empty();
                }
                return Optional.of(new StableWhere(update.getWhere().toString(), parameters, columns));
            } catch (net.sf.jsqlparser.JSQLParserException | RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    private static boolean stable(Expression e, List<Integer> parameters, Set<String> columns, int depth) {
        if (depth > MAX_DEPTH || e == null) {
            return false;
        }
        Class<?> type = e.getClass();
        if (type == Column.class) {
            Column column = (Column) e;
            if (column.getTable() != null && column.getTable().getName() != null || column.getArrayConstructor() != null) {
                return false;
            }
            String name = column.getUnquotedColumnName().toLowerCase(Locale.ROOT);
            // TRUE, FALSE and the like parse as columns on some grammars: no column of those names is trusted.
            if (Set.of("true", "false", "null", "unknown", "default", "current_timestamp", "current_date",
                    "current_time", "current_user", "localtime", "localtimestamp").contains(name)) {
                return false;
            }
            columns.add(name);
            return true;
        }
        if (type == JdbcParameter.class) {
            JdbcParameter p = (JdbcParameter) e;
            if (p.getIndex() == null || p.isUseFixedIndex()) {
                return false;
            }
            parameters.add(p.getIndex());
            return true;
        }
        if (type == LongValue.class || type == DoubleValue.class || type == NullValue.class) {
            return true;
        }
        if (type == StringValue.class) {
            StringValue s = (StringValue) e;
            // A backslash is an escape on MySQL and MariaDB; a prefix (b'', x'', _utf8'') changes what it is.
            return s.getPrefix() == null && !s.getValue().contains("\\");
        }
        if (type == SignedExpression.class) {
            return stable(((SignedExpression) e).getExpression(), parameters, columns, depth + 1);
        }
        if (type == NotExpression.class) {
            NotExpression not = (NotExpression) e;
            return !not.isExclamationMark() && stable(not.getExpression(), parameters, columns, depth + 1);
        }
        if (type == AndExpression.class || type == OrExpression.class || type == EqualsTo.class || type == NotEqualsTo.class
                || type == GreaterThan.class || type == GreaterThanEquals.class || type == MinorThan.class
                || type == MinorThanEquals.class || type == Addition.class || type == Subtraction.class
                || type == Multiplication.class) {
            net.sf.jsqlparser.expression.BinaryExpression b = (net.sf.jsqlparser.expression.BinaryExpression) e;
            if (b instanceof net.sf.jsqlparser.expression.operators.relational.ComparisonOperator c
                    && c.getOldOracleJoinSyntax() != 0) {
                return false;
            }
            return stable(b.getLeftExpression(), parameters, columns, depth + 1)
                    && stable(b.getRightExpression(), parameters, columns, depth + 1);
        }
        if (type == ParenthesedExpressionList.class) {
            ParenthesedExpressionList<?> list = (ParenthesedExpressionList<?>) e;
            return list.size() == 1 && stable(list.get(0), parameters, columns, depth + 1);
        }
        if (type == InExpression.class) {
            InExpression in = (InExpression) e;
            if (in.isGlobal() || in.getOldOracleJoinSyntax() != 0 || !stable(in.getLeftExpression(), parameters, columns, depth + 1)
                    || !(in.getRightExpression() instanceof ExpressionList<?> items)
                    || items.getClass() != ParenthesedExpressionList.class || items.isEmpty()) {
                return false;
            }
            for (Expression item : items) {
                if (!stable(item, parameters, columns, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        if (type == Between.class) {
            Between between = (Between) e;
            return stable(between.getLeftExpression(), parameters, columns, depth + 1)
                    && stable(between.getBetweenExpressionStart(), parameters, columns, depth + 1)
                    && stable(between.getBetweenExpressionEnd(), parameters, columns, depth + 1);
        }
        if (type == IsNullExpression.class) {
            IsNullExpression isNull = (IsNullExpression) e;
            return !isNull.isUseIsNull() && !isNull.isUseNotNull() && stable(isNull.getLeftExpression(), parameters, columns, depth + 1);
        }
        if (type == LikeExpression.class) {
            LikeExpression like = (LikeExpression) e;
            return like.getLikeKeyWord() == LikeExpression.KeyWord.LIKE && like.getEscape() == null
                    && stable(like.getLeftExpression(), parameters, columns, depth + 1)
                    && stable(like.getRightExpression(), parameters, columns, depth + 1);
        }
        return false;
    }
}
