package dev.isocheck.internal.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.isocheck.history.Value;
import dev.isocheck.internal.recording.jdbc.PostgresDatabase;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The evaluator against real databases: random WHERE clauses (comparisons, arithmetic, IN,
 * BETWEEN, IS NULL, LIKE, string equality, booleans, three-valued logic) over random rows with
 * NULLs, each asked of H2 and of PostgreSQL. Wherever the evaluator decides a row, the database
 * must agree: TRUE rows are returned, FALSE and UNKNOWN rows are not. INDETERMINATE rows are
 * the evaluator saying it cannot tell, which the checker treats as such; they must stay rare.
 * A clause the database refuses (a type mismatch, division by zero) is skipped.
 *
 * <p>Strings are compared only for equality and LIKE: by order they follow the collation, which
 * the recorder never trusts the evaluator with.
 */
class WhereEvaluationDifferentialTests {

    private static final long SEED = Long.getLong("isocheck.seed", 20261125L);
    private static final int CLAUSES = 400;
    private static final String[] STRINGS = {"a", "b", "ab", "A", "a%b", "ba", ""};

    @Test
    void h2AgreesWithTheEvaluatorOnEveryRowItDecides() throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:where_differential;DB_CLOSE_DELAY=-1");
        agree("H2", h2);
    }

    @Test
    void postgresAgreesWithTheEvaluatorOnEveryRowItDecides() throws Throwable {
        agree("PostgreSQL", PostgresDatabase.get().dataSource());
    }

    private static void agree(String database, DataSource ds) throws SQLException {
        Random random = new Random(SEED);
        List<Map<String, Object>> rows = rows(random);
        try (Connection c = ds.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS where_rows");
                s.execute("CREATE TABLE where_rows (id INT PRIMARY KEY, a INT, b INT, c NUMERIC(10, 2), s VARCHAR(10), f BOOLEAN)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO where_rows VALUES (?, ?, ?, ?, ?, ?)")) {
                for (Map<String, Object> row : rows) {
                    insert.setObject(1, row.get("id"));
                    insert.setObject(2, row.get("a"));
                    insert.setObject(3, row.get("b"));
                    insert.setObject(4, row.get("c"));
                    insert.setObject(5, row.get("s"));
                    insert.setObject(6, row.get("f"));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            int decided = 0;
            int asked = 0;
            int compared = 0;
            for (int i = 0; i < CLAUSES; i++) {
                String where = new Clauses(random).condition(3);
                Set<Integer> selected = select(c, where);
                if (selected == null) {
                    continue;
                }
                compared++;
                ParsedWhere parsed = WherePredicate.parse(where);
                if (!(parsed instanceof WherePredicate predicate)) {
                    fail("seed %d, %s: the evaluator refused %s: %s", SEED, database, where, parsed);
                    return;
                }
                for (Map<String, Object> row : rows) {
                    Truth truth = predicate.evaluate(Value.of(row));
                    asked++;
                    if (truth == Truth.INDETERMINATE) {
                        continue;
                    }
                    decided++;
                    boolean returned = selected.contains((Integer) row.get("id"));
                    if (returned != (truth == Truth.TRUE)) {
                        fail("seed %d (-Disocheck.seed=%d), %s: WHERE %s on row %s: the evaluator says %s, the database %s it",
                                SEED, SEED, database, where, row, truth, returned ? "returns" : "does not return");
                    }
                }
            }
            assertThat(compared).as("clauses the database answered").isGreaterThan(CLAUSES / 2);
            assertThat(decided).as("rows decided of %d", asked).isGreaterThan(asked * 3 / 4);
        }
    }

    /** The ids the database returns for the clause, or {@code null} when it refuses the clause. */
    private static Set<Integer> select(Connection c, String where) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM where_rows WHERE " + where)) {
            Set<Integer> ids = new HashSet<>();
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
            return ids;
        } catch (SQLException refused) {
            if (!autoCommit) {
                c.rollback();
            }
            return null;
        }
    }

    private static List<Map<String, Object>> rows(Random random) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int id = 1; id <= 40; id++) {
            Map<String, Object> row = new HashMap<>();
            row.put("id", id);
            row.put("a", random.nextInt(8) == 0 ? null : random.nextInt(21) - 10);
            // Never 0: b divides, and one division by zero makes the database refuse the whole clause.
            row.put("b", random.nextInt(8) == 0 ? null : (random.nextInt(5) + 1) * (random.nextBoolean() ? 1 : -1));
            row.put("c", random.nextInt(8) == 0 ? null : BigDecimal.valueOf(random.nextInt(2001) - 1000, 2));
            row.put("s", random.nextInt(8) == 0 ? null : STRINGS[random.nextInt(STRINGS.length)]);
            row.put("f", random.nextInt(6) == 0 ? null : random.nextBoolean());
            rows.add(row);
        }
        return rows;
    }

    /** A random clause grammar over the table's columns. */
    private record Clauses(Random random) {

        String condition(int depth) {
            int pick = random.nextInt(depth > 0 ? 12 : 9);
            return switch (pick) {
                case 0, 1, 2 -> number(2) + " " + comparison() + " " + number(2);
                case 3 -> "s " + (random.nextBoolean() ? "=" : "<>") + " " + string();
                case 4 -> "s " + (random.nextBoolean() ? "NOT " : "") + "IN (" + string() + ", " + string() + ")";
                case 5 -> "s " + (random.nextBoolean() ? "NOT " : "") + "LIKE " + pattern();
                case 6 -> number(1) + (random.nextBoolean() ? " NOT" : "") + " BETWEEN " + number(1) + " AND " + number(1);
                case 7 -> pick(new String[] {"a", "b", "c", "s", "f"}) + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
                case 8 -> pick(new String[] {"f", "NOT f", "f = TRUE", "f <> FALSE", "a IN (1, 2, 3, -4)", "b NOT IN (0, 1)"});
                case 9 -> "NOT (" + condition(depth - 1) + ")";
                case 10 -> "(" + condition(depth - 1) + " AND " + condition(depth - 1) + ")";
                default -> "(" + condition(depth - 1) + " OR " + condition(depth - 1) + ")";
            };
        }

        String number(int depth) {
            int pick = random.nextInt(depth > 0 ? 9 : 6);
            return switch (pick) {
                case 0, 1 -> pick(new String[] {"a", "b"});
                case 2 -> "c";
                case 3 -> String.valueOf(random.nextInt(11) - 5);
                case 4 -> pick(new String[] {"1.5", "0.25", "-2.50", "NULL"});
                case 5 -> "-" + pick(new String[] {"a", "b", "c"});
                case 6, 7 -> "(" + number(depth - 1) + " " + pick(new String[] {"+", "-", "*"}) + " " + number(depth - 1) + ")";
                default -> "(" + number(depth - 1) + " " + pick(new String[] {"/", "%"}) + " " + divisor() + ")";
            };
        }

        /** Something never zero. */
        String divisor() {
            return pick(new String[] {"b", "b", "-b", "2", "-3", "7", "(b * 2)", "(b + 10)", "1.5", "NULL"});
        }

        String comparison() {
            return pick(new String[] {"=", "<>", "<", "<=", ">", ">="});
        }

        String string() {
            return "'" + STRINGS[random.nextInt(STRINGS.length)] + "'";
        }

        String pattern() {
            return pick(new String[] {"'a%'", "'%b'", "'_b'", "'a_'", "'%'", "'A%'", "'a\\%b'", "''"});
        }

        String pick(String[] choices) {
            return choices[random.nextInt(choices.length)];
        }
    }
}
