package dev.isocheck.internal.predicate;

import dev.isocheck.history.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/** A value inside a condition: a literal, a column of the row, or arithmetic over them. */
sealed interface Operand {

    /**
     * The operand's value on {@code row} (an object value); {@link Value#ABSENT} is SQL NULL;
     * {@code null} when it cannot be told (an ambiguous column name).
     */
    Value valueOn(Value row);

    /** A number, string, boolean or NULL ({@link Value#ABSENT}) literal. */
    record Literal(Value value) implements Operand {
        @Override
        public Value valueOn(Value row) {
            return value;
        }
    }

    /**
     * A string literal whose value depends on the SQL dialect: one containing a backslash, which
     * is an escape character in MySQL's default mode ({@code 'a\\b'} is {@code a\b}) and an
     * ordinary character in PostgreSQL and SQLite. Its value is never told ({@code null}), so every
     * comparison with it is {@link Truth#INDETERMINATE}.
     */
    record DialectString(String text) implements Operand {
        @Override
        public Value valueOn(Value row) {
            return null;
        }
    }

    /**
     * A column: the row's field of that name. A quoted name matches only exactly. An unquoted name
     * is matched as databases fold identifiers, which they do differently (PostgreSQL to lower
     * case, Oracle to upper case, MySQL and SQLite ignore case): the one field equal to it ignoring
     * case; when the row has two or more such fields ({@code v} and {@code V}), which one the
     * database read cannot be told.
     */
    record Column(String name, boolean quoted) implements Operand {
        @Override
        public Value valueOn(Value row) {
            Map<String, Value> fields = row.fields();
            if (quoted) {
                Value exact = fields.get(name);
                return exact == null ? Value.ABSENT : exact;
            }
            Value found = Value.ABSENT;
            int matches = 0;
            for (Map.Entry<String, Value> field : fields.entrySet()) {
                if (field.getKey().equalsIgnoreCase(name)) {
                    found = field.getValue();
                    matches++;
                }
            }
            return matches > 1 ? null : found;
        }

        /**
         * Whether {@code row} has a field of exactly this name, which is the one this column reads.
         * A field equal only ignoring case does not count: {@code row} may be partial knowledge of a
         * row, and an unobserved field of exactly this name would take precedence over it in
         * PostgreSQL. Nor does a field when another one equals it ignoring case (an unquoted column
         * then reads a field we cannot tell).
         */
        boolean isFieldOf(Value row) {
            Map<String, Value> fields = row.fields();
            if (!fields.containsKey(name)) {
                return false;
            }
            if (quoted) {
                return true;
            }
            for (String field : fields.keySet()) {
                if (!field.equals(name) && field.equalsIgnoreCase(name)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * {@code left op right} for {@code +}, {@code -}, {@code *}, {@code /} and {@code %} on numbers,
     * as SQL computes them wherever the answer does not depend on the columns' types: NULL if
     * either side is NULL; sums, differences and products exactly; a quotient or remainder only of
     * two integers, and a quotient only when it is exact (integer division truncates where decimal
     * division does not, and the values do not say which the columns are). Anything else (strings,
     * division by zero, an integer result beyond 32 bits, which an {@code integer} column would
     * overflow into an error) cannot be told ({@code null}), which makes a comparison over it
     * {@link Truth#INDETERMINATE}.
     */
    record Arithmetic(char op, Operand left, Operand right) implements Operand {

        private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
        private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);

        @Override
        public Value valueOn(Value row) {
            Value l = left.valueOn(row);
            Value r = right.valueOn(row);
            if (l == null || r == null) {
                return null;
            }
            if (l.isAbsent() || r.isAbsent()) {
                return Value.ABSENT;
            }
            if (!l.isNumber() || !r.isNumber()) {
                return null;
            }
            BigDecimal a = l.asDecimal().orElseThrow();
            BigDecimal b = r.asDecimal().orElseThrow();
            boolean integers = isInteger(a) && isInteger(b);
            BigDecimal result;
            switch (op) {
                case '+' -> result = a.add(b);
                case '-' -> result = a.subtract(b);
                case '*' -> result = a.multiply(b);
                case '/', '%' -> {
                    if (!integers || b.signum() == 0) {
                        return null;
                    }
                    BigInteger[] qr = a.toBigIntegerExact().divideAndRemainder(b.toBigIntegerExact());
                    if (op == '/' && qr[1].signum() != 0) {
                        return null;
                    }
                    // BigInteger's remainder takes the dividend's sign, as SQL's % does.
                    result = new BigDecimal(op == '/' ? qr[0] : qr[1]);
                }
                default -> {
                    return null;
                }
            }
            if (integers && (result.compareTo(INT_MAX) > 0 || result.compareTo(INT_MIN) < 0)) {
                return null;
            }
            return Value.of(result);
        }

        private static boolean isInteger(BigDecimal d) {
            return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
        }
    }
}
