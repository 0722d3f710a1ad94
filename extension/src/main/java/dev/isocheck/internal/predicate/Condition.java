package dev.isocheck.internal.predicate;

import dev.isocheck.history.Value;
import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

/** A compiled {@code where} clause, evaluated on an object value (a row) with SQL's logic. */
sealed interface Condition {

    /** The truth of this condition on {@code row}, an object value. */
    Truth evaluate(Value row);

    /**
     * Bounds {@code {low, high}} (inclusive, infinite when open) that the number in {@code column}
     * (compared ignoring case) lies within whenever this condition is TRUE on a row; unbounded when
     * the condition does not confine it. Only comparisons of the column with number literals
     * confine it (TRUE needs both sides numbers); everything else is unbounded, which is always
     * safe: the bounds only let a caller skip rows, never decide one.
     */
    default double[] bounds(String column) {
        return unbounded();
    }

    /** The bounds of a condition that confines nothing. */
    static double[] unbounded() {
        return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
    }

    /** The number a literal operand holds, or NaN. */
    static double number(Operand operand) {
        if (operand instanceof Operand.Literal literal && literal.value().isNumber()) {
            return literal.value().asDecimal().orElseThrow().doubleValue();
        }
        return Double.NaN;
    }

    /** Whether {@code operand} is {@code column}, compared ignoring case (a quoted name included: a superset is safe). */
    static boolean isColumn(Operand operand, String column) {
        return operand instanceof Operand.Column c && c.name().equalsIgnoreCase(column);
    }

    /**
     * {@code t1 AND t2 AND ...}: a chain flattened into one node, so that a long chain (a normal
     * generated clause) is neither compiled nor evaluated by deep recursion.
     */
    record And(List<Condition> terms) implements Condition {
        public And {
            terms = List.copyOf(terms);
        }

        @Override
        public Truth evaluate(Value row) {
            Truth all = Truth.TRUE;
            for (Condition term : terms) {
                all = all.and(term.evaluate(row));
                if (all == Truth.FALSE) {
                    return all;
                }
            }
            return all;
        }

        @Override
        public double[] bounds(String column) {
            double[] within = unbounded();
            for (Condition term : terms) {
                double[] b = term.bounds(column);
                within[0] = Math.max(within[0], b[0]);
                within[1] = Math.min(within[1], b[1]);
            }
            return within;
        }
    }

    /** {@code t1 OR t2 OR ...}: a chain flattened into one node, as {@link And}. */
    record Or(List<Condition> terms) implements Condition {
        public Or {
            terms = List.copyOf(terms);
        }

        @Override
        public Truth evaluate(Value row) {
            Truth any = Truth.FALSE;
            for (Condition term : terms) {
                any = any.or(term.evaluate(row));
                if (any == Truth.TRUE) {
                    return any;
                }
            }
            return any;
        }

        @Override
        public double[] bounds(String column) {
            if (terms.isEmpty()) {
                return unbounded();
            }
            double[] hull = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
            for (Condition term : terms) {
                double[] b = term.bounds(column);
                hull[0] = Math.min(hull[0], b[0]);
                hull[1] = Math.max(hull[1], b[1]);
            }
            return hull;
        }
    }

    /** {@code NOT inner}. */
    record Not(Condition inner) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            return inner.evaluate(row).not();
        }
    }

    /** The six comparison operators. */
    enum Comparison {
        EQ, NE, LT, LE, GT, GE;

        Truth of(int sign) {
            return Truth.of(switch (this) {
                case EQ -> sign == 0;
                case NE -> sign != 0;
                case LT -> sign < 0;
                case LE -> sign <= 0;
                case GT -> sign > 0;
                case GE -> sign >= 0;
            });
        }
    }

    /** {@code left op right}. */
    record Compare(Comparison op, Operand left, Operand right) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            return compare(op, left.valueOn(row), right.valueOn(row));
        }

        @Override
        public double[] bounds(String column) {
            Comparison seen = op;
            double n;
            if (isColumn(left, column)) {
                n = number(right);
            } else if (isColumn(right, column)) {
                n = number(left);
                // "n op column" is "column op' n".
                seen = switch (op) {
                    case LT -> Comparison.GT;
                    case LE -> Comparison.GE;
                    case GT -> Comparison.LT;
                    case GE -> Comparison.LE;
                    default -> op;
                };
            } else {
                return unbounded();
            }
            if (Double.isNaN(n)) {
                return unbounded();
            }
            return switch (seen) {
                case EQ -> new double[] {n, n};
                case LT, LE -> new double[] {Double.NEGATIVE_INFINITY, n};
                case GT, GE -> new double[] {n, Double.POSITIVE_INFINITY};
                case NE -> unbounded();
            };
        }
    }

    /** {@code operand [NOT] IN (items)}: the OR of {@code operand = item}. */
    record In(Operand operand, List<Operand> items, boolean negated) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            Value value = operand.valueOn(row);
            Truth any = Truth.FALSE;
            for (Operand item : items) {
                any = any.or(compare(Comparison.EQ, value, item.valueOn(row)));
            }
            return negated ? any.not() : any;
        }

        @Override
        public double[] bounds(String column) {
            if (negated || !isColumn(operand, column) || items.isEmpty()) {
                return unbounded();
            }
            double[] hull = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
            for (Operand item : items) {
                double n = number(item);
                if (Double.isNaN(n)) {
                    return unbounded();
                }
                hull[0] = Math.min(hull[0], n);
                hull[1] = Math.max(hull[1], n);
            }
            return hull;
        }
    }

    /** {@code operand [NOT] BETWEEN low AND high}: {@code operand >= low AND operand <= high}. */
    record Between(Operand operand, Operand low, Operand high, boolean negated) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            Value value = operand.valueOn(row);
            Truth within = compare(Comparison.GE, value, low.valueOn(row))
                    .and(compare(Comparison.LE, value, high.valueOn(row)));
            return negated ? within.not() : within;
        }

        @Override
        public double[] bounds(String column) {
            double lo = number(low);
            double hi = number(high);
            if (negated || !isColumn(operand, column) || Double.isNaN(lo) || Double.isNaN(hi)) {
                return unbounded();
            }
            return new double[] {lo, hi};
        }
    }

    /** {@code operand IS [NOT] NULL}: never UNKNOWN. */
    record IsNull(Operand operand, boolean negated) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            Value value = operand.valueOn(row);
            if (value == null) {
                return Truth.INDETERMINATE;
            }
            return Truth.of(value.isAbsent() != negated);
        }
    }

    /** {@code inner IS [NOT] TRUE|FALSE}: never UNKNOWN. */
    record IsBoolean(Condition inner, boolean expected, boolean negated) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            Truth truth = inner.evaluate(row);
            if (truth == Truth.INDETERMINATE) {
                return truth;
            }
            return Truth.of((truth == Truth.of(expected)) != negated);
        }
    }

    /**
     * {@code operand [NOT] LIKE pattern}: a string matched against a compiled pattern, case
     * sensitively; any other non-NULL value is INDETERMINATE (dialects convert or reject it). A
     * {@code null} pattern is one whose meaning depends on the dialect (a backslash in it): every
     * non-NULL value is INDETERMINATE.
     */
    record Like(Operand operand, Pattern pattern, boolean negated) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            Value value = operand.valueOn(row);
            if (value == null) {
                return Truth.INDETERMINATE;
            }
            if (value.isAbsent()) {
                return Truth.UNKNOWN;
            }
            if (pattern == null || !value.isString()) {
                return Truth.INDETERMINATE;
            }
            Truth matches = Truth.of(pattern.matcher(value.asString().orElseThrow()).matches());
            return negated ? matches.not() : matches;
        }
    }

    /**
     * A column or literal where a condition is expected ({@code WHERE on_call}): a boolean is its
     * truth, NULL is UNKNOWN, anything else INDETERMINATE.
     */
    record BooleanOperand(Operand operand) implements Condition {
        @Override
        public Truth evaluate(Value row) {
            Value value = operand.valueOn(row);
            if (value == null) {
                return Truth.INDETERMINATE;
            }
            if (value.isAbsent()) {
                return Truth.UNKNOWN;
            }
            return value.asBoolean().map(Truth::of).orElse(Truth.INDETERMINATE);
        }
    }

    /**
     * SQL comparison of two scalar values: NULL makes it UNKNOWN; numbers compare numerically,
     * strings by {@link String#compareTo} (a binary collation), booleans with FALSE before TRUE;
     * values of different types, arrays and objects are INDETERMINATE, because databases convert
     * them (MySQL's {@code '1' = 1}, PostgreSQL's untyped literals) or reject them, and we cannot
     * tell which.
     */
    static Truth compare(Comparison op, Value left, Value right) {
        if (left == null || right == null) {
            return Truth.INDETERMINATE;
        }
        if (left.isAbsent() || right.isAbsent()) {
            return Truth.UNKNOWN;
        }
        if (left.isNumber() && right.isNumber()) {
            BigDecimal l = left.asDecimal().orElseThrow();
            BigDecimal r = right.asDecimal().orElseThrow();
            return op.of(l.compareTo(r));
        }
        if (left.isString() && right.isString()) {
            return op.of(left.asString().orElseThrow().compareTo(right.asString().orElseThrow()));
        }
        if (left.isBoolean() && right.isBoolean()) {
            return op.of(Boolean.compare(left.asBoolean().orElseThrow(), right.asBoolean().orElseThrow()));
        }
        return Truth.INDETERMINATE;
    }
}
