package dev.isocheck.internal.recording.sql;

import dev.isocheck.internal.recording.sql.AnalysedStatement.NoRowsKnown;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Opaque;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Operand;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Classifies SQL text with JSqlParser, once per distinct text. The rule everywhere: when in doubt,
 * a read is not recorded (the check gets weaker) and a write leaves its table, or every table, out
 * of the check (weaker again); nothing is ever guessed, since a guess can raise a false alarm.
 */
public final class SqlAnalyzer {

    private static final SqlTextCache<AnalysedStatement> CACHE = new SqlTextCache<>();

    private static final SqlTextCache<Optional<Set<String>>> FUNCTIONS = new SqlTextCache<>();

    private SqlAnalyzer() {
    }

    /** Analyses {@code sql}; never throws. */
    public static AnalysedStatement analyse(String sql) {
        AnalysedStatement cached = CACHE.get(sql);
        if (cached != null) {
            return cached;
        }
        AnalysedStatement analysed;
        try {
            analysed = parse(sql);
        } catch (RuntimeException e) {
            // A parser's surprise must not reach the application; what was not understood may write anything.
            analysed = new Opaque(Optional.empty(), "the recorder failed to analyse the statement: " + e);
        }
        CACHE.put(sql, analysed);
        return analysed;
    }

    private static final SqlTextCache<Optional<Write>> RETURNING = new SqlTextCache<>();

    /**
     * The write {@code sql} is but for its own {@code RETURNING} clause ({@code INSERT ... RETURNING
     * id}, as jOOQ sends every insert on PostgreSQL), which alone keeps {@link #analyse} from
     * calling it one: an INSERT, UPDATE or DELETE of one table, no MERGE, and a RETURNING of
     * expressions of the row alone (no subquery). Empty otherwise.
     */
    public static Optional<Write> returningWrite(String sql) {
        return RETURNING.computeIfAbsent(sql, text -> {
            try {
                return withoutReturning(text).map(SqlAnalyzer::analyse)
                        .filter(analysed -> analysed instanceof Write write && write.kind() != WriteKind.MERGE)
                        .map(Write.class::cast);
            } catch (JSQLParserException | RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    /**
     * {@code sql}'s one statement, from the parses shared by the questions asked of a statement
     * as it is sent ({@link RecentParses}: read it, never change it); empty when it is not one
     * statement the parser reads.
     */
    private static Optional<Statement> onlyStatement(String sql) {
        try {
            List<Statement> statements = RecentParses.statements(sql);
            return statements.size() == 1 ? Optional.of(statements.get(0)) : Optional.empty();
        } catch (JSQLParserException e) {
            return Optional.empty();
        }
    }

    private static final SqlTextCache<Boolean> QUALIFIED = new SqlTextCache<>();

    /**
     * Whether the INSERT, UPDATE or DELETE {@code sql} names its table with a schema or database
     * ({@code UPDATE otherdb.accounts ...}); true when it cannot be told.
     */
    public static boolean writesQualifiedTable(String sql) {
        return QUALIFIED.computeIfAbsent(sql, text -> {
            try {
                Statement statement = onlyStatement(text).orElse(null);
                Table table = statement instanceof Insert insert ? insert.getTable()
                        : statement instanceof Update update ? update.getTable()
                        : statement instanceof Delete delete ? delete.getTable() : null;
                return table == null || table.getSchemaName() != null || table.getDatabase() != null
                        && table.getDatabase().getDatabaseName() != null;
            } catch (RuntimeException | StackOverflowError e) {
                return true;
            }
        });
    }

    private static final SqlTextCache<Integer> UPSERT_ROWS = new SqlTextCache<>();

    /**
     * How many rows an {@code INSERT ... VALUES ... ON DUPLICATE KEY UPDATE} or a {@code REPLACE
     * ... VALUES} lists; -1 for any other statement.
     */
    public static int upsertRowsListed(String sql) {
        return UPSERT_ROWS.computeIfAbsent(sql, text -> {
            try {
                Statement statement = onlyStatement(text).orElse(null);
                net.sf.jsqlparser.statement.select.Select select = statement instanceof Insert insert
                        && insert.getDuplicateUpdateSets() != null ? insert.getSelect()
                        : statement instanceof net.sf.jsqlparser.statement.upsert.Upsert upsert ? upsert.getSelect() : null;
                return select instanceof net.sf.jsqlparser.statement.select.Values values ? values.getExpressions().size() : -1;
            } catch (RuntimeException | StackOverflowError e) {
                return -1;
            }
        });
    }

    private static final SqlTextCache<List<String[]>> QUALIFIED_TABLES = new SqlTextCache<>();

    /**
     * Every table {@code sql} names with a database or schema, as {schema, table} (unquoted); a
     * text that does not parse names none here (the analysis leaves it out anyway).
     */
    public static List<String[]> qualifiedTables(String sql) {
        if (sql.indexOf('.') < 0) {
            return List.of();
        }
        return QUALIFIED_TABLES.computeIfAbsent(sql, text -> {
            try {
                List<String[]> out = new ArrayList<>();
                for (Statement statement : RecentParses.statements(text)) {
                    new net.sf.jsqlparser.util.TablesNamesFinder<Void>() {
                        @Override
                        public <S> Void visit(Table table, S context) {
                            String schema = table.getSchemaName();
                            if (schema != null) {
                                out.add(new String[] {unquote(schema), table.getUnquotedName()});
                            }
                            return super.visit(table, context);
                        }
                    }.getTables(statement);
                }
                return List.copyOf(out);
            } catch (net.sf.jsqlparser.JSQLParserException | RuntimeException | StackOverflowError e) {
                return List.of();
            }
        });
    }

    private static String unquote(String name) {
        return name.length() > 1 && (name.startsWith("`") && name.endsWith("`") || name.startsWith("\"") && name.endsWith("\""))
                ? name.substring(1, name.length() - 1) : name;
    }

    private static final SqlTextCache<Optional<Map<String, Operand>>> ASSIGNED = new SqlTextCache<>();

    /**
     * What an UPDATE of one table assigns each column it sets ({@code SET n = ?, name = 'x'}): a
     * literal or a parameter, or {@code null} for anything else ({@code n = n + 1}); empty for any
     * other statement, a column set twice, or a SET of several columns at once.
     */
    public static Optional<Map<String, Operand>> assignedValues(String sql) {
        return ASSIGNED.computeIfAbsent(sql, text -> {
            try {
                if (!(onlyStatement(text).orElse(null) instanceof Update update) || update.getUpdateSets() == null
                        || update.getJoins() != null || update.getStartJoins() != null || update.getFromItem() != null
                        || update.getReturningClause() != null) {
                    return Optional.empty();
                }
                Map<String, Operand> assigned = new LinkedHashMap<>();
                for (UpdateSet set : update.getUpdateSets()) {
                    if (set.getColumns().size() != 1 || set.getValues().size() != 1) {
                        return Optional.empty();
                    }
                    String column = columnName(set.getColumns().get(0));
                    if (assigned.containsKey(column)) {
                        return Optional.empty();
                    }
                    assigned.put(column, operand(set.getValues().get(0)).orElse(null));
                }
                return Optional.of(java.util.Collections.unmodifiableMap(assigned));
            } catch (RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    private static final SqlTextCache<Optional<InsertedValues>> INSERTED = new SqlTextCache<>();

    /**
     * The rows an {@code INSERT ... (columns) VALUES (...), (...)} lists, each value a literal or a
     * parameter, or {@code null} where it is anything else (an expression, {@code DEFAULT},
     * {@code NULL}); empty for any other INSERT (no column list, {@code SET}, {@code SELECT},
     * {@code ON DUPLICATE KEY}, {@code RETURNING}) or text.
     */
    public static Optional<InsertedValues> insertedValues(String sql) {
        return INSERTED.computeIfAbsent(sql, text -> {
            try {
                if (!(onlyStatement(text).orElse(null) instanceof Insert insert) || insert.getColumns() == null
                        || insert.getDuplicateUpdateSets() != null || insert.getReturningClause() != null
                        || insert.getConflictAction() != null || insert.getWithItemsList() != null
                        || !(insert.getSelect() instanceof net.sf.jsqlparser.statement.select.Values values)) {
                    return Optional.empty();
                }
                List<String> columns = new ArrayList<>();
                insert.getColumns().forEach(c -> columns.add(columnName(c)));
                List<List<Operand>> rows = new ArrayList<>();
                net.sf.jsqlparser.expression.operators.relational.ExpressionList<?> listed = values.getExpressions();
                if (listed instanceof net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<?>
                        && listed.stream().noneMatch(e -> e instanceof net.sf.jsqlparser.expression.operators.relational.ExpressionList)) {
                    rows.add(operands(listed));
                } else {
                    for (Expression row : listed) {
                        if (!(row instanceof net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<?> each)) {
                            return Optional.empty();
                        }
                        rows.add(operands(each));
                    }
                }
                if (rows.stream().anyMatch(row -> row.size() != columns.size()) || Set.copyOf(columns).size() != columns.size()) {
                    return Optional.empty();
                }
                return Optional.of(new InsertedValues(List.copyOf(columns), List.copyOf(rows)));
            } catch (RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    private static List<Operand> operands(List<? extends Expression> row) {
        List<Operand> operands = new ArrayList<>();
        for (Expression value : row) {
            operands.add(operand(value).orElse(null));
        }
        return java.util.Collections.unmodifiableList(operands);
    }

    /**
     * The rows an INSERT lists by VALUES ({@link #insertedValues}).
     *
     * @param columns the columns it names (lower case), in order
     * @param rows    each row's values in the order of {@code columns}: a literal or parameter, or
     *                {@code null} for anything else
     */
    public record InsertedValues(List<String> columns, List<List<Operand>> rows) {
    }

    /** {@code sql} without its RETURNING clause, from a parse of its own (shared parses are never changed). */
    private static Optional<String> withoutReturning(String sql) throws JSQLParserException {
        List<Statement> statements = dev.isocheck.internal.limit.SqlParsing.statements(sql).getStatements();
        if (statements.size() != 1) {
            return Optional.empty();
        }
        Statement statement = statements.get(0);
        Object returning;
        if (statement instanceof Insert insert) {
            returning = insert.getReturningClause();
            insert.setReturningClause(null);
        } else if (statement instanceof Update update) {
            returning = update.getReturningClause();
            update.setReturningClause(null);
        } else if (statement instanceof Delete delete) {
            returning = delete.getReturningClause();
            delete.setReturningClause(null);
        } else {
            return Optional.empty();
        }
        if (returning == null || returning.toString().toUpperCase(Locale.ROOT).matches("(?s).*\\bSELECT\\b.*")) {
            return Optional.empty();
        }
        return Optional.of(statement.toString());
    }

    /**
     * The names (lower case, without schema) of the functions {@code sql} calls, anywhere in it
     * (projection, WHERE, VALUES, SET, FROM), read from its parse tree; empty when it cannot be
     * parsed.
     */
    public static Optional<Set<String>> functionsCalled(String sql) {
        Optional<Set<String>> cached = FUNCTIONS.get(sql);
        if (cached != null) {
            return cached;
        }
        Optional<Set<String>> found;
        try {
            Set<String> names = new HashSet<>();
            net.sf.jsqlparser.util.TablesNamesFinder<Void> finder = new net.sf.jsqlparser.util.TablesNamesFinder<>() {
                @Override
                public <S> Void visit(net.sf.jsqlparser.expression.Function function, S context) {
                    String name = function.getName() == null ? "" : function.getName();
                    names.add(name.substring(name.lastIndexOf('.') + 1).replace("\"", "").toLowerCase(Locale.ROOT));
                    return super.visit(function, context);
                }

                @Override
                public <S> Void visit(net.sf.jsqlparser.statement.select.TableFunction function, S context) {
                    names.add(function.getFunction() == null ? "?" : function.getFunction().getName().toLowerCase(Locale.ROOT));
                    return super.visit(function, context);
                }
            };
            for (Statement statement : RecentParses.statements(sql)) {
                finder.getTables(statement);
            }
            found = Optional.of(Set.copyOf(names));
        } catch (JSQLParserException | RuntimeException e) {
            found = Optional.empty();
        }
        FUNCTIONS.put(sql, found);
        return found;
    }

    /**
     * Whether {@code sql} is DDL or another statement that databases without transactional DDL
     * (H2, HSQLDB, MySQL) run after an implicit commit of the transaction in progress.
     */
    public static boolean commitsImplicitly(String sql) {
        return switch (firstWord(sql)) {
            case "CREATE", "ALTER", "DROP", "TRUNCATE", "GRANT", "REVOKE", "COMMENT", "ANALYZE", "RENAME" -> true;
            default -> false;
        };
    }

    /** Whether {@code sql} changes the schema rather than rows (CREATE, ALTER, DROP, GRANT, ...; not TRUNCATE). */
    public static boolean isDdl(String sql) {
        return commitsImplicitly(sql) && !firstWord(sql).equals("TRUNCATE");
    }

    /** The statement's first word in upper case; scanned by hand, since this runs for every statement sent. */
    public static String firstWord(String sql) {
        int start = 0;
        while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
            start++;
        }
        int end = start;
        while (end < sql.length() && !Character.isWhitespace(sql.charAt(end))) {
            end++;
        }
        return sql.substring(start, end).toUpperCase(Locale.ROOT);
    }

    /**
     * A table's name as keys use it: unquoted, lower case, without its schema, so that one table
     * named several ways is one table (the primary-key look-up refuses names that several tables
     * answer to).
     */
    public static String tableName(Table table) {
        return table.getUnquotedName().toLowerCase(Locale.ROOT);
    }

    /** A column's name as rows use it: unquoted, lower case. */
    public static String columnName(String label) {
        String name = label.length() > 1 && label.startsWith("\"") && label.endsWith("\"")
                ? label.substring(1, label.length() - 1) : label;
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * A column of a statement's text by its name as rows use it: unquoted (double quotes,
     * MySQL's backticks, brackets), lower case, so that {@code `id`} is the column {@code id}.
     */
    public static String columnName(net.sf.jsqlparser.schema.Column column) {
        return column.getUnquotedColumnName().toLowerCase(Locale.ROOT);
    }

    private static AnalysedStatement parse(String sql) {
        if (sql.contains("/*!") || sql.contains("/*M!")) {
            // MySQL and MariaDB run what such a comment holds (/*! ON DUPLICATE KEY UPDATE ... */,
            // /*! WHERE id = 1 */), which the parser skips as a comment.
            return new Opaque(Optional.empty(), "an executable comment (/*! ... */), which MySQL and MariaDB run"
                    + " and the recorder's SQL parser skips, may change any table");
        }
        Statement statement;
        try {
            // parse() stops after the first statement; a second one would slip past the analysis
            // and, rewritten, change meaning.
            List<Statement> statements = RecentParses.statements(sql);
            if (statements.size() != 1) {
                return statements.isEmpty() ? new NoRowsKnown("no statement")
                        : new Opaque(Optional.empty(), "several statements in one may change any table");
            }
            statement = statements.get(0);
        } catch (JSQLParserException | RuntimeException e) {
            return unparsed(sql);
        }
        if (statement instanceof PlainSelect select) {
            return query(select);
        }
        if (statement instanceof Select select) {
            return withoutWrites(select)
                    ? NoRowsKnown.unkeyedQuery("a UNION, INTERSECT, EXCEPT, VALUES or parenthesised query")
                    : new Opaque(Optional.empty(), "a SELECT with a data-modifying WITH");
        }
        if (everyTableMayChange(statement)) {
            return new Opaque(Optional.empty(), "a data-modifying WITH, a TRUNCATE of several tables or CASCADE,"
                    + " or a DELETE of several tables may change any table");
        }
        if (statement instanceof Insert insert) {
            AnalysedStatement analysed = write(WriteKind.INSERT, insert.getTable(), insert.getReturningClause() == null
                    && insert.getWithItemsList() == null && insert.getDuplicateUpdateSets() == null,
                    insert.getConflictAction() == null ? null : insert.getConflictAction().getUpdateSets());
            if (analysed instanceof Write write && write.isUpsert()) {
                // ON CONFLICT DO UPDATE: what its SET and WHERE use of the row it found.
                StringBuilder used = new StringBuilder(String.valueOf(insert.getConflictAction().getWhereExpression()));
                for (UpdateSet set : insert.getConflictAction().getUpdateSets()) {
                    used.append(' ').append(set.getValues());
                }
                return new Write(write.kind(), write.table(), write.assigned(), null, false, words(used.toString()));
            }
            return analysed;
        }
        if (statement instanceof Update update) {
            AnalysedStatement analysed = write(WriteKind.UPDATE, update.getTable(), update.getReturningClause() == null
                    && update.getWithItemsList() == null && update.getFromItem() == null
                    && empty(update.getJoins()) && empty(update.getStartJoins()), update.getUpdateSets());
            if (analysed instanceof Write write) {
                StringBuilder used = new StringBuilder(String.valueOf(update.getWhere()));
                for (UpdateSet set : update.getUpdateSets()) {
                    used.append(' ').append(set.getValues());
                }
                return new Write(write.kind(), write.table(), write.assigned(), update.getWhere(),
                        update.getLimit() != null || !empty(update.getOrderByElements()), words(used.toString()));
            }
            return analysed;
        }
        if (statement instanceof Delete delete) {
            AnalysedStatement analysed = write(WriteKind.DELETE, delete.getTable(), delete.getReturningClause() == null
                    && delete.getWithItemsList() == null && empty(delete.getJoins())
                    && empty(delete.getUsingList()) && (delete.getTables() == null || delete.getTables().isEmpty()), null);
            if (analysed instanceof Write write) {
                return new Write(write.kind(), write.table(), write.assigned(), delete.getWhere(),
                        delete.getLimit() != null || !empty(delete.getOrderByElements()));
            }
            return analysed;
        }
        if (statement instanceof net.sf.jsqlparser.statement.merge.Merge merge && merge.getTable() != null
                && merge.getWithItemsList() == null && merge.getOutputClause() == null) {
            Set<String> assigned = new HashSet<>();
            if (merge.getOperations() != null) {
                for (var operation : merge.getOperations()) {
                    if (operation instanceof net.sf.jsqlparser.statement.merge.MergeUpdate update && update.getUpdateSets() != null) {
                        update.getUpdateSets().forEach(set -> set.getColumns().forEach(c -> assigned.add(columnName(c))));
                    }
                }
            }
            // Every word of the statement: a superset of the target's columns its ON, WHEN and SET use.
            return new Write(WriteKind.MERGE, tableName(merge.getTable()), Set.copyOf(assigned), null, false, words(sql));
        }
        if (statement instanceof CreateTable || statement instanceof CreateIndex) {
            // A new table has no rows; an index changes no row.
            return new NoRowsKnown("DDL that changes no row");
        }
        if (statement instanceof net.sf.jsqlparser.statement.SetStatement
                || statement instanceof net.sf.jsqlparser.statement.ShowStatement
                || statement instanceof net.sf.jsqlparser.statement.comment.Comment) {
            return new NoRowsKnown("a setting or comment");
        }
        if (statement instanceof net.sf.jsqlparser.statement.ExplainStatement
                && !sql.toUpperCase(Locale.ROOT).matches("(?s)\\s*EXPLAIN\\s*(\\(.*)?ANALY[SZ]E.*")) {
            // EXPLAIN plans without running; EXPLAIN ANALYZE runs the statement.
            return new NoRowsKnown("a query plan");
        }
        Optional<Table> changed = changedTable(statement);
        if (changed.isPresent()) {
            return new Opaque(Optional.of(tableName(changed.get())), "a " + statement.getClass().getSimpleName().toUpperCase(Locale.ROOT)
                    + " changes rows the recorder does not see");
        }
        return new Opaque(Optional.empty(), "a statement the recorder does not analyse ("
                + statement.getClass().getSimpleName() + ") may change any table");
    }

    /**
     * Whether a write changes tables beyond the one it names: a WITH of its own (whose queries
     * may modify data), a TRUNCATE of several tables or with CASCADE, a DELETE of several tables.
     */
    private static boolean everyTableMayChange(Statement statement) {
        if (statement instanceof Insert insert) {
            return insert.getWithItemsList() != null;
        }
        if (statement instanceof Update update) {
            return update.getWithItemsList() != null;
        }
        if (statement instanceof Delete delete) {
            return delete.getWithItemsList() != null || delete.getTables() != null && !delete.getTables().isEmpty();
        }
        if (statement instanceof net.sf.jsqlparser.statement.truncate.Truncate truncate) {
            return truncate.getCascade() || truncate.getTables() != null && truncate.getTables().size() > 1;
        }
        return false;
    }

    /** The one table a MERGE, UPSERT, TRUNCATE, ALTER or DROP TABLE changes. */
    private static Optional<Table> changedTable(Statement statement) {
        if (statement instanceof net.sf.jsqlparser.statement.merge.Merge merge) {
            return Optional.ofNullable(merge.getTable());
        }
        if (statement instanceof net.sf.jsqlparser.statement.upsert.Upsert upsert) {
            return Optional.ofNullable(upsert.getTable());
        }
        if (statement instanceof net.sf.jsqlparser.statement.truncate.Truncate truncate) {
            return Optional.ofNullable(truncate.getTable());
        }
        if (statement instanceof net.sf.jsqlparser.statement.alter.Alter alter) {
            return Optional.ofNullable(alter.getTable());
        }
        if (statement instanceof net.sf.jsqlparser.statement.drop.Drop drop && "TABLE".equalsIgnoreCase(drop.getType())) {
            return Optional.ofNullable(drop.getName());
        }
        return Optional.empty();
    }

    private static AnalysedStatement unparsed(String sql) {
        if (WriteSuspicion.severalStatements(sql)) {
            // The first word names the first statement only ("LOCK TABLE a; UPDATE a ...").
            return new Opaque(Optional.empty(), "several statements in one may change any table");
        }
        String[] words = sql.strip().toUpperCase(Locale.ROOT).split("\\s+", 3);
        String first = words[0];
        if (first.equals("SELECT") || first.equals("VALUES")) {
            return NoRowsKnown.unkeyedQuery("a query the SQL parser does not understand");
        }
        if (first.equals("SHOW")) {
            return new NoRowsKnown("a setting");
        }
        if (first.equals("SET") && !(words.length > 1 && words[1].equals("CONSTRAINTS")) || first.equals("LOCK")
                || first.equals("COMMENT")) {
            // Settings, locks and comments change no row; SET CONSTRAINTS can make a commit fail later,
            // which the commit itself shows.
            return new NoRowsKnown("a setting, lock or comment");
        }
        return new Opaque(Optional.empty(), "a statement the SQL parser does not understand may change any table");
    }

    /** The lower-cased words of {@code text}: a superset of the columns it names. */
    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_$]+")) {
            words.add(word);
        }
        return Set.copyOf(words);
    }

    /** What keeps the recorder from keying a query's rows, in a developer's words. */
    private static String unkeyed(PlainSelect select) {
        if (!empty(select.getJoins())) {
            return "a join";
        }
        if (select.getGroupBy() != null || select.getHaving() != null) {
            return "GROUP BY or HAVING";
        }
        if (select.getWithItemsList() != null) {
            return "a WITH query";
        }
        if (!(select.getFromItem() instanceof Table)) {
            return "a subquery or function in FROM";
        }
        return "not a SELECT over a single table";
    }

    private static boolean withoutWrites(Select select) {
        return select.getWithItemsList() == null || select.getWithItemsList().stream()
                .allMatch(w -> w.getParenthesedStatement() instanceof net.sf.jsqlparser.statement.select.ParenthesedSelect);
    }

    private static AnalysedStatement write(WriteKind kind, Table table, boolean plain, List<UpdateSet> sets) {
        String name = tableName(table);
        Set<String> assigned = new HashSet<>();
        if (sets != null) {
            for (UpdateSet set : sets) {
                set.getColumns().forEach(c -> assigned.add(columnName(c)));
            }
        }
        return plain ? new Write(kind, name, Set.copyOf(assigned))
                : new Opaque(Optional.of(name), (kind == WriteKind.DELETE ? "a " : "an ") + kind
                        + " with RETURNING (where it cannot be sent with columns of its own added), WITH, joins or ON DUPLICATE KEY");
    }

    private static AnalysedStatement query(PlainSelect select) {
        if (select.getFromItem() == null && select.getWithItemsList() == null) {
            // SELECT 1, SELECT now(): a pool's validation query reads no table. SELECT EXISTS
            // (SELECT ...) does, in its subqueries (a literal spelling SELECT only costs a note).
            return java.util.regex.Pattern.compile("(?i)\\bSELECT\\b").matcher(select.toString()).results().count() > 1
                    ? NoRowsKnown.unkeyedQuery("a SELECT of no table whose subqueries read tables")
                    : new NoRowsKnown("a SELECT of no table");
        }
        if (select.getFromItem() instanceof Table && !empty(select.getJoins())) {
            Optional<AnalysedStatement> joined = joined(select);
            if (joined.isPresent()) {
                return joined.get();
            }
        }
        if (!(select.getFromItem() instanceof Table table)
                || !empty(select.getJoins()) || select.getGroupBy() != null || select.getHaving() != null
                || select.getWithItemsList() != null || select.getIntoTables() != null
                || select.getOracleHierarchical() != null || select.getWindowDefinitions() != null) {
            return withoutWrites(select) ? NoRowsKnown.unkeyedQuery(unkeyed(select))
                    : new Opaque(Optional.empty(), "a SELECT with a data-modifying WITH");
        }
        Optional<Set<String>> aggregated = aggregateArguments(select);
        if (aggregated.isPresent()) {
            return new AnalysedStatement.Aggregate(tableName(table), select.getWhere(), aggregated.get(),
                    limited(select));
        }
        List<String> columns = new ArrayList<>();
        boolean star = false;
        for (SelectItem<?> item : select.getSelectItems()) {
            Expression e = item.getExpression();
            if (e instanceof AllColumns || e instanceof AllTableColumns) {
                star = true;
            } else if (e instanceof Column column) {
                columns.add(columnName(column));
            } else {
                return NoRowsKnown.unkeyedQuery("a projection with expressions");
            }
        }
        if (star && !columns.isEmpty()) {
            return NoRowsKnown.unkeyedQuery("a projection mixing * and columns");
        }
        Map<String, Operand> equalities = new LinkedHashMap<>();
        boolean onlyEqualities = select.getWhere() != null && conjuncts(select.getWhere(), equalities);
        equalities.values().removeIf(java.util.Objects::isNull);
        return new Query(tableName(table), star ? null : List.copyOf(columns), Map.copyOf(equalities),
                onlyEqualities, select.getWhere(), limited(select), select.getDistinct() != null);
    }

    /**
     * The join {@code select} is, when the recorder can read each table's rows from it: tables
     * joined by INNER, LEFT or comma joins (no RIGHT, FULL, NATURAL, lateral or subquery), each
     * with a name of its own, and a projection of columns, {@code *} and literals alone (an
     * expression could aggregate, and DISTINCT or GROUP BY would change what a column added
     * returns); empty otherwise.
     */
    private static Optional<AnalysedStatement> joined(PlainSelect select) {
        if (select.getGroupBy() != null || select.getHaving() != null || select.getWithItemsList() != null
                || select.getIntoTables() != null || select.getOracleHierarchical() != null
                || select.getWindowDefinitions() != null || select.getDistinct() != null) {
            return Optional.empty();
        }
        for (SelectItem<?> item : select.getSelectItems()) {
            Expression e = item.getExpression();
            if (!(e instanceof Column || e instanceof AllColumns || e instanceof AllTableColumns || e instanceof LongValue
                    || e instanceof StringValue || e instanceof net.sf.jsqlparser.expression.NullValue)) {
                return Optional.empty();
            }
        }
        List<AnalysedStatement.Joined.Source> sources = new ArrayList<>();
        Table first = (Table) select.getFromItem();
        sources.add(new AnalysedStatement.Joined.Source(tableName(first), qualifier(first), written(first), null, false));
        for (net.sf.jsqlparser.statement.select.Join join : select.getJoins()) {
            if (!(join.getFromItem() instanceof Table table) || join.isRight() || join.isFull() || join.isNatural()
                    || join.isCross() && join.isOuter() || join.isApply() || join.isStraight() || join.isSemi()
                    || join.isOuter() && !join.isLeft() || table.getSampleClause() != null) {
                return Optional.empty();
            }
            Expression on = join.getOnExpressions() == null || join.getOnExpressions().isEmpty() ? null
                    : join.getOnExpressions().size() == 1 ? join.getOnExpressions().iterator().next() : null;
            if (join.getOnExpressions() != null && join.getOnExpressions().size() > 1) {
                return Optional.empty();
            }
            sources.add(new AnalysedStatement.Joined.Source(tableName(table), qualifier(table), written(table), on, join.isLeft()));
        }
        Set<String> aliases = new HashSet<>();
        for (AnalysedStatement.Joined.Source source : sources) {
            if (!aliases.add(source.alias())) {
                return Optional.empty();
            }
        }
        return Optional.of(new AnalysedStatement.Joined(List.copyOf(sources), select.getWhere(), limited(select)));
    }

    /** The name a table's columns are qualified with in a statement, as it is written there. */
    private static String written(Table table) {
        return table.getAlias() != null ? table.getAlias().getName() : table.getName();
    }

    /** The name a table's columns are qualified with in a statement: its alias, or its own name, lower case. */
    private static String qualifier(Table table) {
        return unquotedName(table.getAlias() != null ? table.getAlias().getName() : table.getName());
    }

    /** The table or alias {@code column} is qualified with, as {@link #qualifier} names them; {@code null} for none. */
    public static String qualifierOf(Column column) {
        Table table = column.getTable();
        return table == null || table.getName() == null ? null : unquotedName(table.getName());
    }

    /** A name without its quotes, lower case. */
    public static String unquotedName(String name) {
        return name.replace("\"", "").replace("`", "").toLowerCase(Locale.ROOT);
    }

    /**
     * The terms of {@code where}'s top-level AND, each without its parentheses
     * ({@code (a = 1) AND (b = 2 AND c)} is {@code a = 1}, {@code b = 2}, {@code c}); none for {@code null}.
     */
    public static List<Expression> conjunctsOf(Expression where) {
        List<Expression> out = new ArrayList<>();
        collectConjuncts(where, out);
        return out;
    }

    private static void collectConjuncts(Expression e, List<Expression> out) {
        Expression bare = unparenthesised(e);
        if (bare instanceof AndExpression and) {
            collectConjuncts(and.getLeftExpression(), out);
            collectConjuncts(and.getRightExpression(), out);
        } else if (bare != null) {
            out.add(bare);
        }
    }

    /** {@code e} without the parentheses around it. */
    public static Expression unparenthesised(Expression e) {
        Expression bare = e;
        while (true) {
            if (bare instanceof net.sf.jsqlparser.expression.Parenthesis p) {
                bare = p.getExpression();
            } else if (bare instanceof net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<?> list
                    && list.size() == 1) {
                bare = list.get(0);
            } else {
                return bare;
            }
        }
    }

    private static boolean limited(PlainSelect select) {
        return select.getLimit() != null || select.getOffset() != null || select.getFetch() != null
                || select.getTop() != null || select.getFirst() != null || select.getSkip() != null
                || select.getLimitBy() != null || skipsRows(select);
    }

    /**
     * When every item of the projection is one of the plain aggregates over {@code *} or one
     * column, the columns they take; empty otherwise (expressions around or inside an aggregate,
     * window functions, anything else).
     */
    private static Optional<Set<String>> aggregateArguments(PlainSelect select) {
        Set<String> arguments = new java.util.TreeSet<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            if (!(item.getExpression() instanceof net.sf.jsqlparser.expression.Function function)
                    || function.getName() == null || function.getMultipartName().size() != 1 || function.getKeep() != null
                    || function.getAttribute() != null
                    || !AGGREGATES.contains(function.getName().toLowerCase(Locale.ROOT))) {
                return Optional.empty();
            }
            var parameters = function.getParameters();
            boolean star = function.isAllColumns() || parameters != null && parameters.size() == 1
                    && parameters.get(0) instanceof AllColumns && !function.isDistinct();
            if (star) {
                if (!function.getName().equalsIgnoreCase("count")) {
                    return Optional.empty();
                }
                continue;
            }
            if (parameters == null || parameters.size() != 1 || !(parameters.get(0) instanceof Column column)
                    || column.getColumnName().equalsIgnoreCase("*")) {
                return Optional.empty();
            }
            arguments.add(columnName(column));
        }
        return Optional.of(Set.copyOf(arguments));
    }

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "min", "max", "avg");

    /**
     * Whether the query may return fewer rows than its WHERE selects for reasons other than a limit:
     * {@code SKIP LOCKED} skips rows another transaction holds, {@code TABLESAMPLE} samples. Read
     * from the parsed statement's text, so that a comment cannot hide it (a string literal that
     * mentions them only costs a predicate read).
     */
    private static boolean skipsRows(PlainSelect select) {
        String text = select.toString().toUpperCase(Locale.ROOT);
        return text.contains("SKIP LOCKED") || text.contains("TABLESAMPLE") || text.contains("SAMPLE");
    }

    /** Collects {@code column = value} conjuncts; returns whether the whole clause is made of them. */
    /**
     * Whether {@code where} is nothing but one equality on each column of {@code key}
     * ({@code WHERE id = ?}): a statement that touches at most that one row.
     */
    public static boolean fixesOnly(Expression where, List<String> key) {
        Map<String, Operand> equalities = new LinkedHashMap<>();
        return where != null && !key.isEmpty() && conjuncts(where, equalities) && sameColumns(equalities.keySet(), key);
    }

    /**
     * The top-level {@code column = literal-or-parameter} conjuncts of {@code where}, whatever
     * else it says beside them ({@code id = ? AND version = ? AND n > 0}): every row it selects
     * has those values. A column compared twice ({@code id = 1 AND id = 2}) is not listed.
     */
    public static Map<String, Operand> equalities(Expression where) {
        Map<String, Operand> equalities = new LinkedHashMap<>();
        if (where != null) {
            conjuncts(where, equalities);
            equalities.values().removeIf(java.util.Objects::isNull);
        }
        return equalities;
    }

    /**
     * The values of a top-level {@code column IN (...)} conjunct of {@code where}
     * ({@code id IN (?, ?, 7) AND n > 0}), each a parameter or a literal; empty when there is no
     * such conjunct, more than one, or a value is anything else.
     */
    public static Optional<List<Operand>> inList(Expression where, String column) {
        List<Operand> found = null;
        for (Expression conjunct : conjunctsOf(where)) {
            if (unparenthesised(conjunct) instanceof net.sf.jsqlparser.expression.operators.relational.InExpression in
                    && !in.isNot() && !in.isGlobal() && in.getLeftExpression() instanceof Column left
                    && columnName(left).equals(column)) {
                if (found != null || !(in.getRightExpression() instanceof net.sf.jsqlparser.expression.operators.relational.ExpressionList<?> values)) {
                    return Optional.empty();
                }
                found = new ArrayList<>();
                for (Expression value : values) {
                    Optional<Operand> operand = operand(value);
                    if (operand.isEmpty()) {
                        return Optional.empty();
                    }
                    found.add(operand.get());
                }
            }
        }
        return Optional.ofNullable(found).map(List::copyOf);
    }

    /**
     * Whether {@code columns} and {@code key} name the same columns: {@code Set.copyOf(key).equals(columns)}
     * without copying, since it is asked at every execution of a statement.
     */
    public static boolean sameColumns(Set<String> columns, List<String> key) {
        return columns.containsAll(key) && key.containsAll(columns);
    }

    private static boolean conjuncts(Expression where, Map<String, Operand> into) {
        if (where instanceof AndExpression and) {
            boolean left = conjuncts(and.getLeftExpression(), into);
            return conjuncts(and.getRightExpression(), into) && left;
        }
        if (where instanceof EqualsTo eq) {
            Optional<Map.Entry<String, Operand>> found = equality(eq.getLeftExpression(), eq.getRightExpression())
                    .or(() -> equality(eq.getRightExpression(), eq.getLeftExpression()));
            if (found.isPresent()) {
                if (into.containsKey(found.get().getKey())) {
                    // id = 1 AND id = 2: two values for one column; keep neither as "the" value.
                    into.put(found.get().getKey(), null);
                    return false;
                }
                into.put(found.get().getKey(), found.get().getValue());
                return true;
            }
        }
        return false;
    }

    private static Optional<Map.Entry<String, Operand>> equality(Expression left, Expression right) {
        if (!(left instanceof Column column)) {
            return Optional.empty();
        }
        return operand(right).map(operand -> Map.entry(columnName(column), operand));
    }

    /**
     * A value written as a parameter, an integer or a plain string literal (no escapes, no prefix
     * such as {@code b'101'}, {@code x'ff'} or {@code _latin1'a'}, which mean something else than
     * their text); empty for anything else.
     */
    private static Optional<Operand> operand(Expression value) {
        if (value instanceof JdbcParameter p && p.getIndex() != null && !p.isUseFixedIndex()) {
            return Optional.of(new Operand.Parameter(p.getIndex()));
        } else if (value instanceof LongValue v) {
            // Beyond a long (an UNSIGNED BIGINT's upper half), getValue() throws.
            java.math.BigInteger big = v.getBigIntegerValue();
            return Optional.of(new Operand.Literal(big.bitLength() < 64 ? (Object) big.longValue() : big));
        } else if (value instanceof net.sf.jsqlparser.expression.SignedExpression signed && signed.getSign() == '-'
                && signed.getExpression() instanceof LongValue v) {
            java.math.BigInteger big = v.getBigIntegerValue().negate();
            return Optional.of(new Operand.Literal(big.bitLength() < 64 ? (Object) big.longValue() : big));
        } else if (value instanceof StringValue v && v.getPrefix() == null && !v.getValue().contains("\\")) {
            // A backslash is an escape on MySQL and MariaDB (unless NO_BACKSLASH_ESCAPES) and on
            // PostgreSQL in E'...': what the literal means is not read here.
            return Optional.of(new Operand.Literal(v.getValue().replace("''", "'")));
        }
        return Optional.empty();
    }

    private static boolean empty(List<?> list) {
        return list == null || list.isEmpty();
    }
}
