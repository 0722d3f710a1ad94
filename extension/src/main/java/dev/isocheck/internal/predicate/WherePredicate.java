package dev.isocheck.internal.predicate;

import dev.isocheck.history.Value;
import dev.isocheck.internal.limit.SqlParsing;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;

/**
 * A supported {@code where} clause, compiled, to evaluate on rows.
 *
 * <p>The grammar is that of {@code docs/history-format.md}: {@code = <> != < <= > >=},
 * {@code AND OR NOT}, parentheses, {@code [NOT] IN (list)}, {@code [NOT] BETWEEN}, {@code IS [NOT]
 * NULL}, {@code [NOT] LIKE} (with an optional one-character {@code ESCAPE}), {@code IS [NOT]
 * TRUE|FALSE}, a bare column or literal as a condition, and number, {@code 'string'}, {@code TRUE},
 * {@code FALSE} and {@code NULL} literals. Functions, arithmetic, subqueries, casts, parameters and
 * dialect operators are {@link UnsupportedWhere unsupported}.
 *
 * <p>Decisions where SQL dialects differ (also in {@code docs/semantics.md}):
 * <ul>
 *   <li>A column is the row's field of that name; a field the row lacks, or holds as JSON
 *       {@code null}, is SQL NULL. A qualifier ({@code d.on_call}) is ignored: the read ranges over
 *       one table. Unquoted names match the one field equal ignoring case (databases fold
 *       identifiers, each its own way); two or more such fields ({@code v} and {@code V}) make the
 *       column's value unknown, and comparisons with it {@link Truth#INDETERMINATE}, even when one
 *       is spelt exactly as the name. Quoted names match only exactly.</li>
 *   <li>Numbers compare numerically, strings by {@link String#compareTo} (a binary, case-sensitive
 *       collation, as PostgreSQL's {@code C}; a database with another collation may order or equate
 *       strings differently), booleans with FALSE before TRUE. {@code LIKE} is case-sensitive.</li>
 *   <li>A string literal containing a backslash has a dialect-dependent value (an escape in
 *       MySQL's default mode, itself in PostgreSQL and SQLite): comparisons with it are
 *       {@link Truth#INDETERMINATE}. So is a {@code LIKE} whose pattern or {@code ESCAPE} contains
 *       one (PostgreSQL's and MySQL's default {@code LIKE} escape, an ordinary character in
 *       SQLite), on every non-NULL value.</li>
 *   <li>Comparing values of different types (a number with a string, ...), or arrays and
 *       objects, is {@link Truth#INDETERMINATE}, not FALSE or UNKNOWN: databases convert
 *       ({@code '1' = 1} in MySQL, untyped literals in PostgreSQL) or reject such comparisons, and
 *       either guess could make a checker raise a false alarm.</li>
 *   <li>An absent row satisfies nothing ({@link Truth#FALSE}); a present row that is not an object
 *       has no columns to evaluate and is {@link Truth#INDETERMINATE}.</li>
 * </ul>
 */
public final class WherePredicate implements ParsedWhere {

    /**
     * A bound on the cache (cleared whole when it reaches this many clauses), so that a long-lived
     * process reading many distinct clauses does not grow it without limit.
     */
    private static final int CACHE_LIMIT = 200_000;
    /** The deepest nesting of parentheses parsed; deeper clauses are unsupported. */
    static final int MAX_PARENTHESES = 100;
    private static final Map<String, ParsedWhere> CACHE = new ConcurrentHashMap<>();

    private final String where;
    private final Condition condition;
    private final Set<Operand.Column> columnRefs;
    private final Set<String> columns;
    private final Set<String> orderedColumns;
    /**
     * {@link #selectiveRange()}, {@code null} until first asked: parsing does not pay for it (it
     * is a pass over the condition per column), and every read of the clause shares one answer.
     */
    private volatile Optional<ColumnRange> selectiveRange;

    private WherePredicate(String where, Condition condition, Set<Operand.Column> columnRefs, Set<String> ordered) {
        this.orderedColumns = Collections.unmodifiableSet(new LinkedHashSet<>(ordered));
        this.where = where;
        this.condition = condition;
        this.columnRefs = Set.copyOf(columnRefs);
        Set<String> names = new LinkedHashSet<>();
        columnRefs.forEach(c -> names.add(c.name()));
        this.columns = Collections.unmodifiableSet(names);
    }

    /**
     * Parses and compiles a {@code where} clause, once per distinct text (results are cached).
     *
     * @return a {@code WherePredicate}, or an {@link UnsupportedWhere} with a one-line reason for a
     *     broken clause or one outside the supported grammar; never throws for either
     */
    public static ParsedWhere parse(String where) {
        Objects.requireNonNull(where, "where is null");
        ParsedWhere cached = CACHE.get(where);
        if (cached != null) {
            return cached;
        }
        ParsedWhere parsed = compile(where);
        if (CACHE.size() >= CACHE_LIMIT) {
            CACHE.clear();
        }
        CACHE.put(where, parsed);
        return parsed;
    }

    private static ParsedWhere compile(String where) {
        try {
            return compileOrThrow(where);
        } catch (StackOverflowError tooDeep) {
            // JSqlParser parses nested parentheses by recursion: a clause nested thousands deep.
            return new UnsupportedWhere(where, "the where clause is nested too deeply to parse");
        } catch (RuntimeException unexpected) {
            // parse never throws: a clause we cannot compile is one we do not support.
            return new UnsupportedWhere(where, "the where clause could not be compiled: " + oneLine(unexpected));
        }
    }

    private static ParsedWhere compileOrThrow(String where) {
        if (where.isBlank()) {
            return new UnsupportedWhere(where, "the where clause is empty");
        }
        if (parenthesisDepth(where) > MAX_PARENTHESES) {
            // JSqlParser's time grows with the square of the nesting (500 levels: seconds).
            return new UnsupportedWhere(where, "the where clause nests parentheses more than " + MAX_PARENTHESES + " deep");
        }
        Expression expression;
        try {
            expression = SqlParsing.condition(where);
        } catch (SqlParsing.TooLongToParse slow) {
            return new UnsupportedWhere(where, "the where clause " + slow.getMessage());
        } catch (JSQLParserException | RuntimeException broken) {
            // JSqlParser reports lexical errors as unchecked exceptions; both mean "not SQL we can read".
            return new UnsupportedWhere(where, "not a valid SQL condition: " + oneLine(broken));
        }
        WhereCompiler compiler = new WhereCompiler();
        try {
            Condition condition = compiler.condition(expression);
            return new WherePredicate(where, condition, compiler.columns(), compiler.ordered());
        } catch (WhereCompiler.Refused refused) {
            return new UnsupportedWhere(where, refused.getMessage());
        }
    }

    /**
     * The deepest nesting of parentheses outside string literals and quoted names; a cheap bound
     * checked before parsing, so a mistaken count (a backslash-escaped quote) only errs either way
     * on what is refused or parsed, never on what a parsed clause means.
     */
    static int parenthesisDepth(String where) {
        int depth = 0;
        int deepest = 0;
        char quote = 0;
        for (int i = 0; i < where.length(); i++) {
            char c = where.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                deepest = Math.max(deepest, ++depth);
            } else if (c == ')') {
                depth--;
            }
        }
        return deepest;
    }

    private static String oneLine(Throwable t) {
        Throwable cause = t.getCause() != null && t.getMessage() == null ? t.getCause() : t;
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }

    @Override
    public String where() {
        return where;
    }

    /**
     * The names of the columns the clause mentions, unquoted and unqualified, in order of first
     * mention.
     *
     * @return never {@code null} but potentially empty; unmodifiable
     */
    public Set<String> columns() {
        return columns;
    }

    /**
     * The names of the columns the clause compares by order ({@code <}, {@code <=}, {@code >},
     * {@code >=}, {@code BETWEEN}) rather than only for equality, {@code IN} or {@code LIKE}:
     * strings compare by order as the collation says, equality in a deterministic collation byte
     * for byte, so a recorder trusts the checker with a string column only outside this set.
     *
     * @return a subset of {@link #columns()}; unmodifiable
     */
    public Set<String> orderedColumns() {
        return orderedColumns;
    }

    /**
     * The clause's truth on a row's current value: {@link Truth#FALSE} for an absent row,
     * {@link Truth#INDETERMINATE} for a present value that is not an object.
     */
    public Truth evaluate(Value row) {
        if (row.isAbsent()) {
            return Truth.FALSE;
        }
        if (!row.isObject()) {
            return Truth.INDETERMINATE;
        }
        return condition.evaluate(row);
    }

    /**
     * Whether every column the clause mentions is a field of {@code row} of exactly its name, so
     * that evaluating on {@code row} assumes nothing about fields it lacks (an unquoted column that
     * matches a field only ignoring case would read another field if the row also had one of
     * exactly its name). Used on partial knowledge of a row, such as the merged observations of an
     * unknown initial value.
     */
    public boolean namesOnlyFieldsOf(Value row) {
        if (!row.isObject()) {
            return false;
        }
        for (Operand.Column column : columnRefs) {
            if (!column.isFieldOf(row)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the clause certainly selects a row of which {@code row} may be only part (such as
     * the merged observations of an unknown initial value): the row is present, every column the
     * clause names is a field of {@code row} ({@link #namesOnlyFieldsOf}), and the clause is
     * {@link Truth#TRUE} on it. An absent row is never selected, and UNKNOWN or INDETERMINATE is
     * not certain. This is the conservative rule by which the checkers judge a read that left out
     * a row whose value they know only in part.
     */
    public boolean certainlySelects(Value row) {
        return !row.isAbsent() && namesOnlyFieldsOf(row) && evaluate(row).isTrue();
    }

    /**
     * A numeric range that every row this clause makes TRUE holds in one column, for scanning an
     * index instead of every row: the mentioned column with the narrowest bounds, if any is
     * bounded. The bounds are widened slightly (they are compared as doubles, the clause as exact
     * decimals), so a row outside them is certainly not selected; a row inside must still be
     * evaluated.
     *
     * @return empty when no column is confined by the clause; the same on every call
     */
    public Optional<ColumnRange> selectiveRange() {
        Optional<ColumnRange> range = selectiveRange;
        if (range == null) {
            // Threads that race here compute equal, immutable answers: any one may be kept.
            range = narrowestRange();
            selectiveRange = range;
        }
        return range;
    }

    private Optional<ColumnRange> narrowestRange() {
        ColumnRange best = null;
        for (String column : columns) {
            double[] b = condition.bounds(column);
            if (b[0] == Double.NEGATIVE_INFINITY && b[1] == Double.POSITIVE_INFINITY) {
                continue;
            }
            double low = Double.isInfinite(b[0]) ? b[0] : b[0] - Math.abs(b[0]) * 1e-9 - 1e-9;
            double high = Double.isInfinite(b[1]) ? b[1] : b[1] + Math.abs(b[1]) * 1e-9 + 1e-9;
            ColumnRange range = new ColumnRange(column.toLowerCase(Locale.ROOT), low, high);
            if (best == null || range.high() - range.low() < best.high() - best.low()) {
                best = range;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Inclusive bounds on the number in a column, its name in lower case (rows are matched by
     * field names in lower case, a superset of what the clause reads).
     *
     * @param column the column, lower case
     * @param low    the least value a selected row can hold ({@code -Infinity} when open)
     * @param high   the greatest ({@code +Infinity} when open); below {@code low} when no row can be selected
     */
    public record ColumnRange(String column, double low, double high) {
    }

    @Override
    public String toString() {
        return where;
    }
}
