package dev.isocheck.internal.recording.sql;

import dev.isocheck.internal.recording.sql.AnalysedStatement.Aggregate;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Columns the recorder adds at the end of a query's projection, for itself, and hides from the
 * application, so that one statement both answers the application and tells the recorder which
 * rows it ranged over:
 *
 * <ul>
 *   <li>for an aggregate ({@code SELECT count(*) FROM doctors WHERE on_call}), one aggregated
 *       array per column (the key, the WHERE's columns, the aggregates' arguments), each ordered by
 *       the key, so that the n-th elements of the arrays are the n-th row;</li>
 *   <li>for a plain query whose projection omits the key or columns the WHERE mentions, those
 *       columns, so that the rows can be keyed and the WHERE evaluated on them.</li>
 * </ul>
 *
 * Added columns are real columns of the table, looked up in its metadata and quoted as the
 * database spells them; the statement is otherwise sent as the application wrote it.
 *
 * @param sql        the statement to send
 * @param visible    how many columns the application's own statement returns, or -1 when unknown
 *                   until the result comes (an aggregate's projection is counted here)
 * @param columns    the table column (lower case) of each added column, in order
 * @param aggregated whether the added columns are arrays of the rows aggregated
 * @param types      the JDBC type of each added column's table column, by its lower-case name
 */
public record HiddenColumns(String sql, int visible, List<String> columns, boolean aggregated,
                            java.util.Map<String, Integer> types, List<Integer> sources) {

    /** Columns added for a query of one table. */
    public HiddenColumns(String sql, int visible, List<String> columns, boolean aggregated, java.util.Map<String, Integer> types) {
        this(sql, visible, columns, aggregated, types, null);
    }

    /**
     * For a join, which of its tables ({@link AnalysedStatement.Joined#sources}, by index) the
     * n-th added column is of; {@code null} for a query of one table.
     */
    public List<Integer> sources() {
        return sources;
    }

    /**
     * The form to send a join in: every column of each of its tables added, qualified by the
     * table's alias ({@code d."id" AS isocheck_hidden_1}), so that each row returned tells each
     * table's row it was made of; empty when a table's columns are not known, or not all readable
     * (row-level security included: a read of a row is the recorder's, the rows a policy lets
     * through are the application's), or the statement's text does not let them be added with
     * certainty.
     *
     * @param tables the columns of each of the join's tables, in order
     */
    public static Optional<HiddenColumns> join(AnalysedStatement.Joined joined, String sql, List<TableColumns> tables,
                                               Dialect dialect) {
        if (ordersByPosition(sql, -1)) {
            return Optional.empty();
        }
        List<String> columns = new ArrayList<>();
        List<Integer> sources = new ArrayList<>();
        List<String> items = new ArrayList<>();
        for (int s = 0; s < tables.size(); s++) {
            TableColumns table = tables.get(s);
            if (table == null || table.key().isEmpty() || !table.columns().keySet().containsAll(table.key())
                    || !table.allReadable()) {
                return Optional.empty();
            }
            String alias = joined.sources().get(s).written();
            if (!alias.matches("\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_$]*")) {
                return Optional.empty();
            }
            for (TableColumns.Column column : table.columns().values()) {
                items.add(alias + "." + column.quoted(dialect) + " AS " + label(items.size()));
                columns.add(column.name().toLowerCase(Locale.ROOT));
                sources.add(s);
            }
        }
        return insert(sql, items).map(text -> new HiddenColumns(text, -1, List.copyOf(columns), false, java.util.Map.of(), List.copyOf(sources)));
    }

    /** The label of the n-th (from 0) added column; the application never sees it. */
    public static String label(int n) {
        return "isocheck_hidden_" + (n + 1);
    }

    /** Whether the application's {@code label} names an added column, which it must not find. */
    public boolean hides(String label) {
        String lower = label.toLowerCase(Locale.ROOT);
        for (int i = 0; i < columns.size(); i++) {
            if (lower.equals(label(i)) || lower.equals('"' + label(i) + '"')) {
                return true;
            }
        }
        return false;
    }

    /**
     * The form to send {@code sql} in, or empty when nothing needs adding or it cannot be added
     * safely.
     */
    public static Optional<HiddenColumns> plan(AnalysedStatement analysed, String sql, TableColumns table, Dialect dialect) {
        int visible = analysed instanceof Query query && query.columns() != null ? query.columns().size() : -1;
        if (table == null || table.key().isEmpty() || !table.columns().keySet().containsAll(table.key())
                || ordersByPosition(sql, visible)) {
            return Optional.empty();
        }
        if (analysed instanceof Aggregate aggregate && dialect.aggregatesArrays()) {
            return aggregate(aggregate, sql, table, dialect);
        }
        if (analysed instanceof Query query && dialect != Dialect.OTHER) {
            return plain(query, sql, table, dialect);
        }
        return Optional.empty();
    }

    private static Optional<HiddenColumns> aggregate(Aggregate aggregate, String sql, TableColumns table, Dialect dialect) {
        Set<String> wanted = new LinkedHashSet<>(table.key());
        wanted.addAll(mentioned(aggregate.where() == null ? "" : aggregate.where().toString(), table));
        wanted.addAll(aggregate.arguments());
        List<String> columns = new ArrayList<>();
        for (String name : wanted) {
            TableColumns.Column column = table.columns().get(name);
            if (column != null && dialect.aggregates(column.type())) {
                columns.add(name);
            } else if (table.key().contains(name)) {
                // Rows that cannot be keyed cannot be read.
                return Optional.empty();
            }
        }
        List<String> order = table.key().stream().map(k -> table.columns().get(k).quoted(dialect)).toList();
        List<String> items = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            items.add(dialect.aggregateArray(table.columns().get(columns.get(i)).quoted(dialect), order) + " AS " + label(i));
        }
        return insert(sql, items).map(text -> new HiddenColumns(text, -1, List.copyOf(columns), true, types(columns, table)));
    }

    private static Optional<HiddenColumns> plain(Query query, String sql, TableColumns table, Dialect dialect) {
        if (query.columns() == null || query.distinct() || query.where() == null && query.columns().containsAll(table.key())
                || query.isPointLookup(table.key()) && table.integerKey()) {
            return Optional.empty();
        }
        Set<String> wanted = new LinkedHashSet<>(table.key());
        if (query.where() != null) {
            wanted.addAll(mentioned(query.where().toString(), table));
        }
        wanted.removeAll(query.columns());
        if (wanted.isEmpty()) {
            return Optional.empty();
        }
        List<String> columns = List.copyOf(wanted);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            items.add(table.columns().get(columns.get(i)).quoted(dialect) + " AS " + label(i));
        }
        return insert(sql, items).map(text -> new HiddenColumns(text, query.columns().size(), columns, false, types(columns, table)));
    }

    /**
     * Whether the query orders or groups by a position past its own {@code visible} columns
     * ({@code SELECT v ... ORDER BY 2}; any position when {@code visible} is unknown, -1): an
     * added column would be at that position, and a query that fails without it ({@code 42P10})
     * would succeed with it.
     */
    static boolean ordersByPosition(String sql, int visible) {
        java.util.regex.Matcher clause = BY.matcher(sql);
        while (clause.find()) {
            String list = END_OF_LIST.split(sql.substring(clause.end()), 2)[0];
            for (String item : list.split(",")) {
                java.util.regex.Matcher position = POSITION.matcher(item);
                if (position.matches() && (visible < 0 || Long.parseLong(position.group(1)) > visible)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static final java.util.regex.Pattern BY = java.util.regex.Pattern.compile("(?i)\\b(order|group)\\s+by\\b");
    private static final java.util.regex.Pattern END_OF_LIST = java.util.regex.Pattern.compile(
            "(?i)\\b(limit|offset|fetch|for|having|window|union|intersect|except)\\b|[;)]");
    private static final java.util.regex.Pattern POSITION = java.util.regex.Pattern.compile(
            "(?is)\\s*(\\d{1,9})\\s*(asc|desc)?\\s*(nulls\\s+(first|last))?\\s*");

    private static java.util.Map<String, Integer> types(List<String> columns, TableColumns table) {
        java.util.Map<String, Integer> types = new java.util.HashMap<>();
        columns.forEach(c -> types.put(c, table.columns().get(c).type()));
        return java.util.Map.copyOf(types);
    }

    /**
     * The table's columns whose names occur as words of {@code text}: more than the WHERE may
     * strictly mention (a word in a string literal), which only makes the recorder read a real
     * column more.
     */
    private static Set<String> mentioned(String text, TableColumns table) {
        Set<String> found = new LinkedHashSet<>();
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_$]+")) {
            if (table.columns().containsKey(word)) {
                found.add(word);
            }
        }
        return found;
    }

    private static Optional<String> insert(String sql, List<String> items) {
        int from = ProjectionEnd.find(sql);
        if (from < 0) {
            return Optional.empty();
        }
        return Optional.of(sql.substring(0, from) + ", " + String.join(", ", items) + " " + sql.substring(from));
    }
}
