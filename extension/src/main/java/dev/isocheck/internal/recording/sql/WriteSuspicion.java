package dev.isocheck.internal.recording.sql;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which statements may write rows, for a database whose log records the writes: the recorder
 * then needs to know only where writes may have happened among the reads, and the answer errs
 * towards "may" (which leaves some reads unchecked, never a write unplaced).
 *
 * <p>A query may write when it calls a function the recorder does not know to be free of side
 * effects ({@code SELECT reserve_seat(?)}, {@code WHERE id = next_id()}); anything but a query may
 * write (DML, {@code CALL}, {@code DO}, several statements in one string).
 */
public final class WriteSuspicion {

    /** A name followed by an opening parenthesis: a call, or one of the keywords below. */
    private static final Pattern CALL = Pattern.compile("([A-Za-z_][A-Za-z0-9_$]*)\\s*\\(");
    /** Keywords and built-in functions that read only. */
    private static final Set<String> HARMLESS = Set.of(
            "select", "from", "where", "and", "or", "not", "in", "exists", "any", "all", "some", "values", "on",
            "as", "join", "using", "over", "filter", "by", "then", "else", "when", "case", "limit", "offset", "row",
            "array", "is", "like", "ilike", "between", "distinct", "having", "group", "order", "union", "intersect",
            "except", "with", "lateral", "within", "interval", "cast", "extract", "coalesce", "nullif", "greatest",
            "least", "count", "sum", "min", "max", "avg", "array_agg", "string_agg", "bool_and", "bool_or", "every",
            "lower", "upper", "length", "abs", "round", "trunc", "floor", "ceil", "ceiling", "mod", "substring",
            "substr", "trim", "position", "replace", "concat", "now", "date_trunc", "to_char", "numeric", "decimal",
            "varchar", "char", "timestamp", "date", "time", "float", "double", "int", "integer", "bigint",
            "smallint", "for", "update", "nowait", "fetch", "nextval", "currval", "setval", "gen_random_uuid",
            "random", "clock_timestamp", "statement_timestamp", "transaction_timestamp", "date_part", "make_date",
            "make_timestamp", "to_timestamp", "to_date", "to_number", "age", "jsonb_build_object", "json_build_object",
            "array_length", "cardinality", "unnest", "split_part", "regexp_replace", "left", "right", "strpos",
            "octet_length", "char_length", "md5", "format", "sign", "sqrt", "power", "exp", "ln", "log",
            "current_setting", "isfinite", "bool", "text", "uuid", "boolean", "real", "bigserial", "serial",
            "datediff", "dateadd", "ifnull", "nvl", "identity", "scope_identity", "last_insert_id", "rand", "uuid_generate_v4", "version",
            "current_database", "current_schema", "current_user", "session_user", "txid_current", "database", "schema");
    private static final Pattern TRANSACTION_CONTROL = Pattern.compile(
            "(?is)(^|;)\\s*(BEGIN|START\\s+TRANSACTION|COMMIT|END|ABORT|PREPARE\\s+TRANSACTION"
                    + "|ROLLBACK(?!\\s+(WORK\\s+|TRANSACTION\\s+)?TO\\b)(?!\\s+PREPARED))\\b");

    private WriteSuspicion() {
    }

    /** Whether {@code sql}, analysed as {@code analysed}, may write rows. */
    public static boolean mayWrite(AnalysedStatement analysed, String sql) {
        if (!(analysed instanceof AnalysedStatement.Query || analysed instanceof AnalysedStatement.Aggregate
                || analysed instanceof AnalysedStatement.Joined || analysed instanceof AnalysedStatement.NoRowsKnown)) {
            return true;
        }
        return callsFunctions(sql);
    }

    /**
     * Whether {@code sql} calls a function the recorder does not know to be free of side effects
     * ({@code SELECT reserve(?)}, {@code INSERT ... VALUES (1, bump(2))}): such a function may
     * write any table.
     */
    public static boolean callsFunctions(String sql) {
        return !unknownFunctions(sql).isEmpty();
    }

    /**
     * The functions {@code sql} calls that the recorder does not know to be free of side effects,
     * lower case, in order; from the parse tree, or, when the text cannot be parsed, every name
     * followed by a parenthesis that is not a keyword or known built-in.
     */
    public static Set<String> unknownFunctions(String sql) {
        Set<String> unknown = new java.util.TreeSet<>();
        Optional<Set<String>> called = SqlAnalyzer.functionsCalled(sql);
        if (called.isPresent()) {
            for (String name : called.get()) {
                if (!harmless(name)) {
                    unknown.add(name.toLowerCase(Locale.ROOT));
                }
            }
            return unknown;
        }
        Matcher call = CALL.matcher(withoutLiterals(sql));
        while (call.find()) {
            if (!harmless(call.group(1))) {
                unknown.add(call.group(1).toLowerCase(Locale.ROOT));
            }
        }
        return unknown;
    }

    /**
     * Whether a function of this name reads only: a keyword or built-in the recorder knows, or
     * PostgreSQL's own {@code pg_} functions (system information, locks, sleeps).
     */
    private static boolean harmless(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return HARMLESS.contains(lower) || lower.startsWith("pg_") && !lower.equals("pg_logical_emit_message");
    }

    /** Whether {@code sql} holds several statements (a semicolon with more text after it). */
    public static boolean severalStatements(String sql) {
        String text = withoutLiterals(sql).strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        return text.contains(";");
    }

    /**
     * Whether {@code sql} ends with a semicolon, perhaps followed by comments
     * ({@code UPDATE ...; -- note}): nothing may be appended to it.
     */
    public static boolean endsWithSemicolon(String sql) {
        Boolean cached = SEMICOLON.get(sql);
        if (cached == null) {
            cached = withoutLiterals(sql).strip().endsWith(";");
            SEMICOLON.put(sql, cached);
        }
        return cached;
    }

    /**
     * Whether {@code sql} ends or begins a transaction itself ({@code COMMIT}, {@code BEGIN},
     * {@code ROLLBACK} but not to a savepoint), in any of the statements it holds.
     */
    public static boolean controlsTransaction(String sql) {
        Boolean cached = CONTROLS.get(sql);
        if (cached == null) {
            cached = TRANSACTION_CONTROL.matcher(withoutLiterals(sql)).find();
            CONTROLS.put(sql, cached);
        }
        return cached;
    }

    /** Per text: whether it controls the transaction, and whether it ends in a semicolon (asked for every statement). */
    private static final SqlTextCache<Boolean> CONTROLS = new SqlTextCache<>();
    private static final SqlTextCache<Boolean> SEMICOLON = new SqlTextCache<>();

    /** The text with string literals, quoted names and comments blanked, so that their words do not count. */
    private static String withoutLiterals(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = sql.indexOf(c, i + 1);
                while (end >= 0 && end + 1 < sql.length() && sql.charAt(end + 1) == c) {
                    end = sql.indexOf(c, end + 2);
                }
                if (end < 0) {
                    break;
                }
                out.append(c == '"' ? " x " : " '' ");
                i = end + 1;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
                out.append(' ');
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
