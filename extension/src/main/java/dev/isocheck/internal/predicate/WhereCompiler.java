package dev.isocheck.internal.predicate;

import dev.isocheck.history.Value;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * Turns a JSqlParser expression into a {@link Condition}, accepting only the grammar of
 * {@code docs/history-format.md}; anything else is refused with {@link Refused} rather than
 * guessed at. Classes are matched exactly, so that a JSqlParser subclass with other meaning (a
 * dialect's variant) is refused too.
 */
final class WhereCompiler {

    /**
     * The deepest nesting compiled (see {@link #condition(Expression, int)}); deeper is refused, so
     * that evaluating a condition can never exhaust the stack.
     */
    static final int MAX_DEPTH = 1_000;

    private final Set<Operand.Column> columns = new LinkedHashSet<>();
    /** The names of the columns compared by order ({@code <}, {@code >=}, BETWEEN), not only for equality. */
    private final Set<String> ordered = new LinkedHashSet<>();

    /** Thrown inside the compiler for an expression outside the supported grammar. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The columns met so far. */
    Set<Operand.Column> columns() {
        return columns;
    }

    /** The names of the columns met so far in an ordering comparison. */
    Set<String> ordered() {
        return ordered;
    }

    private void ordered(Operand... operands) {
        for (Operand operand : operands) {
            if (operand instanceof Operand.Column column) {
                ordered.add(column.name());
            }
        }
    }

    Condition condition(Expression e) throws Refused {
        return condition(e, 1);
    }

    /**
     * {@code e} compiled, at nesting level {@code depth}: chains of AND (or of OR) are one level,
     * each NOT, IS TRUE|FALSE or switch between AND and OR one more; parentheses none.
     */
    private Condition condition(Expression e, int depth) throws Refused {
        if (depth > MAX_DEPTH) {
            throw new Refused("the condition is nested more than " + MAX_DEPTH + " levels deep");
        }
        e = unparenthesised(e);
        if (e.getClass() == AndExpression.class || e.getClass() == OrExpression.class) {
            List<Expression> chain = chain(e, e.getClass());
            List<Condition> terms = new ArrayList<>(chain.size());
            for (Expression term : chain) {
                terms.add(condition(term, depth + 1));
            }
            return e.getClass() == AndExpression.class ? new Condition.And(terms) : new Condition.Or(terms);
        }
        if (e.getClass() == NotExpression.class) {
            return new Condition.Not(condition(((NotExpression) e).getExpression(), depth + 1));
        }
        Condition.Comparison comparison = comparisonOf(e);
        if (comparison != null) {
            ComparisonOperator op = (ComparisonOperator) e;
            if (op.getOldOracleJoinSyntax() != 0) {
                throw new Refused("Oracle's (+) join syntax in " + e);
            }
            Condition.Compare compare = new Condition.Compare(comparison, operand(op.getLeftExpression()),
                    operand(op.getRightExpression()));
            if (comparison != Condition.Comparison.EQ && comparison != Condition.Comparison.NE) {
                ordered(compare.left(), compare.right());
            }
            return compare;
        }
        if (e.getClass() == InExpression.class) {
            return in((InExpression) e);
        }
        if (e.getClass() == Between.class) {
            Between between = (Between) e;
            Condition.Between compiled = new Condition.Between(operand(between.getLeftExpression()),
                    operand(between.getBetweenExpressionStart()), operand(between.getBetweenExpressionEnd()),
                    between.isNot());
            ordered(compiled.operand(), compiled.low(), compiled.high());
            return compiled;
        }
        if (e.getClass() == IsNullExpression.class) {
            IsNullExpression isNull = (IsNullExpression) e;
            return new Condition.IsNull(operand(isNull.getLeftExpression()), isNull.isNot());
        }
        if (e.getClass() == IsBooleanExpression.class) {
            IsBooleanExpression is = (IsBooleanExpression) e;
            return new Condition.IsBoolean(condition(is.getLeftExpression(), depth + 1), is.isTrue(), is.isNot());
        }
        if (e.getClass() == LikeExpression.class) {
            return like((LikeExpression) e);
        }
        if (isOperand(e)) {
            return new Condition.BooleanOperand(operand(e));
        }
        throw refusedExpression(e);
    }

    /** {@code e} without the parentheses around it, unwrapped without recursion. */
    private static Expression unparenthesised(Expression e) {
        while (e instanceof ParenthesedExpressionList<?> list && isParenthesis(list)) {
            e = list.get(0);
        }
        return e;
    }

    /**
     * The terms of a chain of one connective ({@code a AND b AND (c AND d)}), in order, found
     * without recursion: JSqlParser nests a chain of n terms n levels deep.
     */
    private static List<Expression> chain(Expression e, Class<?> connective) {
        List<Expression> terms = new ArrayList<>();
        ArrayDeque<Expression> pending = new ArrayDeque<>();
        pending.push(e);
        while (!pending.isEmpty()) {
            Expression next = unparenthesised(pending.pop());
            if (next.getClass() == connective) {
                BinaryExpression binary = (BinaryExpression) next;
                pending.push(binary.getRightExpression());
                pending.push(binary.getLeftExpression());
            } else {
                terms.add(next);
            }
        }
        return terms;
    }

    private static boolean isParenthesis(ParenthesedExpressionList<?> list) {
        return list.size() == 1 && list.get(0) != null;
    }

    private static Condition.Comparison comparisonOf(Expression e) {
        Class<?> c = e.getClass();
        if (c == EqualsTo.class) {
            return Condition.Comparison.EQ;
        }
        if (c == NotEqualsTo.class) {
            String symbol = ((NotEqualsTo) e).getStringExpression();
            return "<>".equals(symbol) || "!=".equals(symbol) ? Condition.Comparison.NE : null;
        }
        if (c == MinorThan.class) {
            return Condition.Comparison.LT;
        }
        if (c == MinorThanEquals.class) {
            return Condition.Comparison.LE;
        }
        if (c == GreaterThan.class) {
            return Condition.Comparison.GT;
        }
        if (c == GreaterThanEquals.class) {
            return Condition.Comparison.GE;
        }
        return null;
    }

    private Condition in(InExpression in) throws Refused {
        if (in.isGlobal()) {
            throw new Refused("GLOBAL IN in " + in);
        }
        if (in.getOldOracleJoinSyntax() != 0) {
            throw new Refused("Oracle's (+) join syntax in " + in);
        }
        Expression right = in.getRightExpression();
        if (!(right instanceof ExpressionList<?> list)) {
            throw new Refused("IN over something other than a list of values (a subquery?) in " + in);
        }
        List<Operand> items = new ArrayList<>(list.size());
        for (Expression item : list) {
            items.add(operand(item));
        }
        return new Condition.In(operand(in.getLeftExpression()), items, in.isNot());
    }

    private Condition like(LikeExpression like) throws Refused {
        if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE || like.isUseBinary()) {
            throw new Refused(like.getLikeKeyWord() + (like.isUseBinary() ? " BINARY" : "")
                    + " is not supported, only LIKE: " + like);
        }
        if (!(like.getRightExpression() instanceof StringValue pattern) || !isPlainString(pattern)) {
            throw new Refused("a LIKE pattern must be a string literal: " + like);
        }
        Character escape = null;
        boolean dialectDependent = hasBackslash(pattern.getNotExcapedValue());
        if (like.getEscape() != null) {
            if (!(like.getEscape() instanceof StringValue e) || !isPlainString(e) || e.getNotExcapedValue().length() != 1) {
                throw new Refused("a LIKE escape must be a one-character string literal: " + like);
            }
            escape = e.getNotExcapedValue().charAt(0);
            dialectDependent |= escape == '\\';
        }
        Operand operand = operand(like.getLeftExpression());
        if (dialectDependent) {
            // A backslash in a LIKE pattern is the default escape character in PostgreSQL and MySQL
            // ('a\_b' matches only a_b there) and an ordinary character in SQLite; MySQL also
            // unescapes it in the string literal itself. What the pattern matches depends on the
            // database, so the LIKE is INDETERMINATE on every non-NULL value.
            return new Condition.Like(operand, null, like.isNot());
        }
        return new Condition.Like(operand, likePattern(pattern.getNotExcapedValue(), escape), like.isNot());
    }

    private static boolean hasBackslash(String text) {
        return text.indexOf('\\') >= 0;
    }

    /**
     * The regular expression of a LIKE pattern: {@code %} is any run of characters, {@code _}
     * one character, the escape character makes the next one literal; every other character is
     * quoted, so regex metacharacters in the data pattern ({@code .}, {@code *}, {@code \\}, ...)
     * mean themselves.
     */
    static Pattern likePattern(String like, Character escape) throws Refused {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (escape != null && c == escape) {
                if (i + 1 == like.length()) {
                    throw new Refused("the LIKE pattern '" + like + "' ends with its escape character");
                }
                literal.append(like.charAt(++i));
            } else if (c == '%' || c == '_') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '%' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private static boolean isOperand(Expression e) {
        return e.getClass() == Column.class || e.getClass() == BooleanValue.class || e.getClass() == NullValue.class
                || e.getClass() == LongValue.class || e.getClass() == DoubleValue.class
                || e.getClass() == StringValue.class || e.getClass() == SignedExpression.class;
    }

    /** The deepest arithmetic compiled ({@code a + b + c ...} is one level per operator). */
    static final int MAX_ARITHMETIC_DEPTH = 100;

    Operand operand(Expression e) throws Refused {
        return operand(e, 0);
    }

    private Operand operand(Expression e, int depth) throws Refused {
        if (depth > MAX_ARITHMETIC_DEPTH) {
            throw new Refused("arithmetic nested more than " + MAX_ARITHMETIC_DEPTH + " deep");
        }
        char op = arithmetic(e);
        if (op != 0) {
            BinaryExpression binary = (BinaryExpression) e;
            return new Operand.Arithmetic(op, operand(binary.getLeftExpression(), depth + 1),
                    operand(binary.getRightExpression(), depth + 1));
        }
        if (e.getClass() == SignedExpression.class && ((SignedExpression) e).getSign() == '-'
                && number(((SignedExpression) e).getExpression()) == null) {
            // -balance is 0 - balance.
            return new Operand.Arithmetic('-', new Operand.Literal(Value.of(0)),
                    operand(((SignedExpression) e).getExpression(), depth + 1));
        }
        if (e.getClass() == Column.class) {
            Column column = (Column) e;
            if (column.getArrayConstructor() != null) {
                throw new Refused("array subscripts are not supported: " + e);
            }
            String name = column.getUnquotedColumnName();
            // A qualifier (d.on_call) can only name the one table the read ranges over, so it is dropped.
            Operand.Column compiled = new Operand.Column(name, !name.equals(column.getColumnName()));
            columns.add(compiled);
            return compiled;
        }
        if (e instanceof ParenthesedExpressionList<?> list && isParenthesis(list)) {
            return operand(unparenthesised(list), depth + 1);
        }
        if (e.getClass() == NullValue.class) {
            return new Operand.Literal(Value.ABSENT);
        }
        if (e.getClass() == BooleanValue.class) {
            return new Operand.Literal(Value.of(((BooleanValue) e).getValue()));
        }
        if (e.getClass() == StringValue.class && isPlainString((StringValue) e)) {
            String text = ((StringValue) e).getNotExcapedValue();
            // MySQL's default mode reads a backslash as an escape ('a\\b' is a\b), PostgreSQL and
            // SQLite as itself: the literal's value depends on the database.
            return hasBackslash(text) ? new Operand.DialectString(text) : new Operand.Literal(Value.of(text));
        }
        BigDecimal number = number(e);
        if (number != null) {
            return new Operand.Literal(Value.of(number));
        }
        throw refusedExpression(e);
    }

    /** The operator of a supported arithmetic expression, or 0. */
    private static char arithmetic(Expression e) {
        Class<?> c = e.getClass();
        return c == Addition.class ? '+' : c == Subtraction.class ? '-' : c == Multiplication.class ? '*'
                : c == Division.class ? '/' : c == Modulo.class ? '%' : 0;
    }

    private static BigDecimal number(Expression e) throws Refused {
        if (e.getClass() == LongValue.class) {
            return new BigDecimal(((LongValue) e).getStringValue());
        }
        if (e.getClass() == DoubleValue.class) {
            try {
                return new BigDecimal(e.toString());
            } catch (NumberFormatException notDecimal) {
                throw new Refused("the number " + e + " cannot be read exactly");
            }
        }
        if (e.getClass() == SignedExpression.class) {
            SignedExpression signed = (SignedExpression) e;
            BigDecimal inner = number(signed.getExpression());
            if (inner != null && (signed.getSign() == '-' || signed.getSign() == '+')) {
                return signed.getSign() == '-' ? inner.negate() : inner;
            }
            throw new Refused("only a number may carry a sign (no arithmetic): " + e);
        }
        return null;
    }

    /** Whether a string literal has no dialect prefix other than N (national characters). */
    private static boolean isPlainString(StringValue s) {
        return s.getPrefix() == null || s.getPrefix().equalsIgnoreCase("N");
    }

    private static Refused refusedExpression(Expression e) {
        return new Refused("unsupported expression " + e.getClass().getSimpleName() + ": " + e);
    }
}
