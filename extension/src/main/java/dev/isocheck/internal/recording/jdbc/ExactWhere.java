package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.UnsupportedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import dev.isocheck.internal.recording.sql.WhereText;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;

/**
 * A statement's WHERE as the predicate a read ranged over, when the checker evaluates it exactly
 * as the database did; otherwise the reason it does not, for the list of what was not modelled.
 *
 * @param where  the WHERE with its parameters substituted, or {@code null}
 * @param reason why there is none, or {@code null}
 */
record ExactWhere(String where, String reason) {

    /** How a statement's columns compare: whether the checker compares {@code column} as the database does. */
    @FunctionalInterface
    interface Columns {
        /**
         * @param column  a column the WHERE mentions, lower case
         * @param ordered whether the WHERE compares it by order ({@code <}, {@code BETWEEN}), not
         *                only for equality
         */
        boolean comparedExactly(String column, boolean ordered);
    }

    /**
     * {@code where} with {@code parameters} (by index, index 0 unused) substituted, when it is in
     * the checker's grammar and every column it mentions compares exactly.
     */
    static ExactWhere of(Expression where, List<Object> parameters, Columns columns) {
        if (where == null) {
            return new ExactWhere("TRUE", null);
        }
        Optional<String> text = WhereText.of(where, parameters);
        if (text.isEmpty()) {
            return new ExactWhere(null, "a parameter is bound to a value without an exact SQL literal");
        }
        ParsedWhere parsed = WherePredicate.parse(text.get());
        if (!(parsed instanceof WherePredicate predicate)) {
            return new ExactWhere(null, "the checker does not evaluate it: " + ((UnsupportedWhere) parsed).reason());
        }
        Set<String> ordered = new HashSet<>();
        predicate.orderedColumns().forEach(c -> ordered.add(c.toLowerCase(Locale.ROOT)));
        for (String column : predicate.columns()) {
            String lower = column.toLowerCase(Locale.ROOT);
            if (!columns.comparedExactly(lower, false)) {
                return new ExactWhere(null, "the checker cannot compare column " + lower + " as the database does"
                        + " (a string column in a collation that is not byte for byte, floating point, or a type it does not read)");
            }
            if (ordered.contains(lower) && !columns.comparedExactly(lower, true)) {
                return new ExactWhere(null, "it compares the string column " + lower
                        + " by order, which follows the database's collation");
            }
        }
        return new ExactWhere(text.get(), null);
    }

    /**
     * This, or, where it is no predicate and the statement's table's key and columns were not
     * looked up yet ({@code columnsKnown} false), that reason instead of a column's: nothing was
     * known of the columns to compare.
     */
    ExactWhere unlessColumnsUnknown(boolean columnsKnown) {
        return where != null || columnsKnown ? this : new ExactWhere(null, "the table's key and columns had not been looked"
                + " up yet (they are looked up between transactions, never inside the application's, where a look-up"
                + " could start its snapshot early; the first transactions on a table are read so)");
    }
}
