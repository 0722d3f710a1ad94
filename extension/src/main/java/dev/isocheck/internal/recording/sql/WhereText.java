package dev.isocheck.internal.recording.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.util.deparser.ExpressionDeParser;

/**
 * A WHERE clause as text with its JDBC parameters replaced by the literals bound to them and its
 * columns named as rows name them (lower case, unquoted, unqualified), for a predicate read the
 * checker evaluates on its own.
 */
public final class WhereText {

    private static final java.util.regex.Pattern PLAIN_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]*");
    private static final java.util.Set<String> NOT_NAMES = java.util.Set.of("true", "false", "null", "unknown", "and", "or",
            "not", "is", "in", "like", "between", "escape");

    private WhereText() {
    }

    /**
     * The clause with each {@code ?} replaced by its bound value, or empty when a parameter is
     * missing or of a type without an exact literal (only integers, decimals, strings, booleans
     * and NULL have one).
     *
     * @param parameters the bound values by index, index 0 unused
     */
    public static Optional<String> of(Expression where, List<Object> parameters) {
        StringBuilder out = new StringBuilder();
        boolean[] ok = {true};
        ExpressionDeParser deParser = new ExpressionDeParser() {
            @Override
            public <S> StringBuilder visit(JdbcParameter parameter, S context) {
                Integer index = parameter.getIndex();
                Optional<String> literal = index == null || parameter.isUseFixedIndex() || index >= parameters.size()
                        ? Optional.empty() : literal(parameters.get(index));
                if (literal.isEmpty()) {
                    ok[0] = false;
                    return getBuffer().append("NULL");
                }
                return getBuffer().append(literal.get());
            }

            @Override
            public <S> StringBuilder visit(Column column, S context) {
                // Rows name their columns in lower case: "ON_CALL" (H2's spelling, quoted by jOOQ)
                // and d.on_call are the row's on_call. A name that would read as something else
                // once unquoted makes the clause unusable.
                String name = column.getUnquotedColumnName().toLowerCase(Locale.ROOT);
                if (column.getArrayConstructor() != null || !PLAIN_NAME.matcher(name).matches() || NOT_NAMES.contains(name)) {
                    ok[0] = false;
                    return getBuffer().append("NULL");
                }
                return getBuffer().append(name);
            }
        };
        deParser.setBuffer(out);
        try {
            where.accept(deParser, null);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        return ok[0] ? Optional.of(out.toString()) : Optional.empty();
    }

    private static Optional<String> literal(Object value) {
        if (value == null || value == Unbound.NULL) {
            return Optional.of("NULL");
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return Optional.of(value.toString());
        }
        if (value instanceof BigDecimal d) {
            return Optional.of(d.toPlainString());
        }
        if (value instanceof Boolean b) {
            return Optional.of(b ? "TRUE" : "FALSE");
        }
        if (value instanceof String s) {
            return Optional.of("'" + s.replace("'", "''") + "'");
        }
        return Optional.empty();
    }

    /**
     * Marks a parameter with no value to stand for: {@code NULL}, one bound with {@code setNull};
     * {@code RETYPED}, one bound with a type, scale or calendar of its own
     * ({@code setObject(i, 5, Types.VARCHAR)}, {@code setTimestamp(i, t, calendar)}), which the
     * database may compare otherwise than the value itself (as the string {@code '5'}).
     */
    public enum Unbound { NULL, RETYPED }
}
