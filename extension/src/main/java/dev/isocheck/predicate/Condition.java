package dev.isocheck.predicate;

import dev.isocheck.history.Value;
import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

/** A compiled {@code where} clause, evaluated on an object value (a row) with SQL's logic. */
sealed interface Condition {

    /** The truth of this condition on {@code row}, an object value. */
    Truth evaluate(Value row);

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
