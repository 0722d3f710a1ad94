package dev.isocheck.internal.recording.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The reads a statement makes inside itself that the recorder does not see: the rows a subquery
 * looks at ({@code WHERE NOT EXISTS (SELECT ...)}, {@code (SELECT count(*) ...) >= 2}), the query
 * of an {@code INSERT ... SELECT}, the tables of an {@code UPDATE ... FROM} or a
 * {@code DELETE ... USING}, and whatever a function the recorder does not know reads (a MERGE's
 * reads are listed where it is recorded, or its table left out). The recorder records a query's own rows and a write's rows (and
 * the rows an UPDATE's or DELETE's WHERE ranges over); what such a statement read besides
 * decided what it did, and an anomaly through it (two concurrent double bookings, each seeing no
 * booking) goes unseen. Such a statement is listed, so that a passing test says what it did not
 * check, instead of passing in silence.
 *
 * <p>Queries the recorder does not key at all (joins, subqueries in FROM) are listed as such
 * already, and are not looked at here.
 */
public final class UnseenReads {

    private static final SqlTextCache<Optional<String>> CACHE = new SqlTextCache<>();

    private UnseenReads() {
    }

    /**
     * What {@code sql} reads that the recorder does not record, in a developer's words; empty
     * when nothing (or when it cannot be parsed: what is not understood is listed elsewhere).
     */
    public static Optional<String> of(String sql) {
        return CACHE.computeIfAbsent(sql, text -> {
            try {
                return describe(text);
            } catch (RuntimeException | StackOverflowError e) {
                return Optional.empty();
            }
        });
    }

    private static Optional<String> describe(String sql) {
        List<String> parts = new ArrayList<>();
        tablesReadInside(sql).filter(tables -> !tables.isEmpty())
                .ifPresent(tables -> parts.add((tables.size() == 1 ? "table " : "tables ") + String.join(", ", tables)
                        + " read inside it (a subquery, INSERT ... SELECT, UPDATE ... FROM or DELETE ... USING)"));
        Set<String> functions = WriteSuspicion.unknownFunctions(sql);
        if (!functions.isEmpty()) {
            parts.add((functions.size() == 1 ? "function " : "functions ") + String.join(", ", functions)
                    + ", which may read any table");
        }
        return parts.isEmpty() ? Optional.empty()
                : Optional.of("what it reads besides its own rows is not checked: " + String.join("; ", parts));
    }

    /** The tables {@code sql} reads beyond its own rows, lower case; empty when it cannot be parsed. */
    private static Optional<Set<String>> tablesReadInside(String sql) {
        List<Statement> statements;
        try {
            statements = RecentParses.statements(sql);
        } catch (JSQLParserException e) {
            return Optional.empty();
        }
        if (statements.size() != 1) {
            return Optional.empty();
        }
        Statement statement = statements.get(0);
        Set<String> tables = new TreeSet<>();
        List<net.sf.jsqlparser.statement.select.WithItem<?>> with = withItems(statement);
        // A query with a WITH is not keyed, and listed as such already.
        for (var item : statement instanceof net.sf.jsqlparser.statement.select.Select ? List.<net.sf.jsqlparser.statement.select.WithItem<?>>of() : with) {
            // A WITH's query reads; a data-modifying statement in a WITH reads the rows it ranges over.
            Statement inner = item.getParenthesedStatement();
            if (inner != null) {
                finder().getTables(inner).forEach(t -> tables.add(name(t)));
            }
        }
        if (statement instanceof Insert insert) {
            // INSERT ... VALUES reads nothing but its subqueries; INSERT ... SELECT reads what its query does.
            if (insert.getSelect() != null) {
                tables.addAll(finder().getTables((Statement) insert.getSelect()));
            }
        } else if (statement instanceof Update update) {
            addTables(tables, update.getWhere());
            if (update.getUpdateSets() != null) {
                for (UpdateSet set : update.getUpdateSets()) {
                    set.getValues().forEach(value -> addTables(tables, value));
                }
            }
            addTables(tables, update.getFromItem());
            addJoins(tables, update.getJoins());
            addJoins(tables, update.getStartJoins());
        } else if (statement instanceof Delete delete) {
            addTables(tables, delete.getWhere());
            if (delete.getUsingList() != null) {
                delete.getUsingList().forEach(using -> tables.add(name(using.getName())));
            }
            addJoins(tables, delete.getJoins());
        } else if (statement instanceof PlainSelect select && select.getFromItem() instanceof net.sf.jsqlparser.schema.Table
                && (select.getJoins() == null || select.getJoins().isEmpty()) && with.isEmpty()) {
            // A query of one table: its own rows are recorded; its subqueries' are not.
            addTables(tables, select.getWhere());
            for (SelectItem<?> item : select.getSelectItems()) {
                addTables(tables, item.getExpression());
            }
            addTables(tables, select.getHaving());
        }
        // The WITH's names are not tables.
        with.forEach(item -> tables.remove(name(String.valueOf(item.getUnquotedAliasName()))));
        return Optional.of(tables);
    }

    /** The items of the statement's own WITH, if it has one. */
    private static List<net.sf.jsqlparser.statement.select.WithItem<?>> withItems(Statement statement) {
        List<net.sf.jsqlparser.statement.select.WithItem<?>> items = null;
        if (statement instanceof Insert insert) {
            items = insert.getWithItemsList();
        } else if (statement instanceof Update update) {
            items = update.getWithItemsList();
        } else if (statement instanceof Delete delete) {
            items = delete.getWithItemsList();
        } else if (statement instanceof net.sf.jsqlparser.statement.select.Select select) {
            items = select.getWithItemsList();
        }
        return items == null ? List.of() : items;
    }

    private static void addTables(Set<String> tables, Expression expression) {
        if (expression != null) {
            finder().getTables(expression).forEach(t -> tables.add(name(t)));
        }
    }

    private static void addTables(Set<String> tables, FromItem item) {
        if (item instanceof net.sf.jsqlparser.schema.Table table) {
            tables.add(name(table.getName()));
        } else if (item instanceof net.sf.jsqlparser.statement.select.Select select) {
            finder().getTables((Statement) select).forEach(t -> tables.add(name(t)));
        } else if (item != null) {
            // A function or other source in FROM: whatever it reads.
            tables.add(item.toString());
        }
    }

    private static void addJoins(Set<String> tables, List<Join> joins) {
        if (joins != null) {
            for (Join join : joins) {
                addTables(tables, join.getFromItem());
                if (join.getOnExpressions() != null) {
                    join.getOnExpressions().forEach(on -> addTables(tables, on));
                }
            }
        }
    }

    /**
     * A finder of the tables FROM clauses name: not the qualifiers of columns, which
     * {@link TablesNamesFinder} counts in an expression, though they are aliases as often as
     * tables ({@code WHERE d.id = ?}) and a qualified column reads nothing a FROM did not.
     */
    private static TablesNamesFinder<Void> finder() {
        return new TablesNamesFinder<>() {
            @Override
            public <S> Void visit(net.sf.jsqlparser.schema.Column column, S context) {
                return null;
            }
        };
    }

    /** A table's name without schema or quotes, lower case, as the recorder names tables. */
    private static String name(String qualified) {
        String last = qualified.substring(qualified.lastIndexOf('.') + 1);
        return last.replace("\"", "").replace("`", "").toLowerCase(Locale.ROOT);
    }
}
