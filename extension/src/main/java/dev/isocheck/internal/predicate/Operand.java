package dev.isocheck.internal.predicate;

import dev.isocheck.history.Value;
import java.util.Map;

/** A value inside a condition: a literal, or a column of the row. */
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
}
