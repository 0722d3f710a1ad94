package dev.isocheck.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.UnsupportedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Text on which JSqlParser backtracks for minutes (a few unclosed parentheses) is given up on at
 * the bound, wherever isocheck parses: a history's {@code where} clause, the recorder's analysis
 * of a statement before the application's thread sends it, and a check over such a history.
 */
@DisplayName("SQL parsed under a time bound")
class SqlParsingTests {

    /** Minutes without the bound: JSqlParser's complex parsing backtracks on each open parenthesis. */
    private static final String UNCLOSED = "(((( a = 1";
    private static final AtomicInteger DATABASES = new AtomicInteger();
    /** The bound, and room for a busy machine. */
    private static final Duration WITHIN = SqlParsing.BOUND.plusSeconds(3);

    @Test
    void aClauseThatWouldBacktrackForMinutesIsGivenUpOnAtTheBoundAndTheParserStops() throws Exception {
        String where = UNCLOSED + " AND b = 2";

        long started = System.nanoTime();
        ParsedWhere parsed = WherePredicate.parse(where);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(WITHIN);
        assertThat(parsed).isInstanceOf(UnsupportedWhere.class);
        assertParsersIdle();
    }

    @Test
    void aValidClauseStillParses() throws Exception {
        assertThat(SqlParsing.condition("((a = 1) AND (b = 2 OR (c = 3)))")).hasToString("((a = 1) AND (b = 2 OR (c = 3)))");
        assertThat(SqlParsing.statements("UPDATE t SET x = 1 WHERE (id = 1); SELECT 1").getStatements()).hasSize(2);
        assertThatThrownBy(() -> SqlParsing.condition("a = = 1")).isNotInstanceOf(SqlParsing.TooLongToParse.class);
    }

    @Test
    void theRecorderGivesUpOnAStatementAtTheBoundAndLeavesItOpaque() throws Exception {
        String sql = "UPDATE t SET x = 1 WHERE " + UNCLOSED + " AND y IN (SELECT ((((z FROM u)";

        long started = System.nanoTime();
        AnalysedStatement analysed = SqlAnalyzer.analyse(sql);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(WITHIN);
        assertThat(analysed).isNotInstanceOf(AnalysedStatement.Write.class).isNotInstanceOf(AnalysedStatement.Query.class);
        assertParsersIdle();
    }

    @Test
    void aRecordedConnectionGetsTheDatabasesOwnSyntaxErrorForSuchAStatementWithinTheBound() throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:unclosed-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, x INT, a INT)");
        }
        String sql = "UPDATE t SET x = 2 WHERE " + UNCLOSED + " AND x > (((1";
        SQLException plain = syntaxError(h2, sql);
        DataSource recorded = Isocheck.record(h2);

        long started = System.nanoTime();
        SQLException seen = syntaxError(recorded, sql);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(WITHIN);
        assertThat((Throwable) seen).isNotNull().hasMessage(plain.getMessage());
        assertThat(seen.getSQLState()).isEqualTo(plain.getSQLState());
    }

    @Test
    void aHistoryWithSuchAPredicateReadIsDecidedWithinTheBoundAndTheClauseIsACaveat() {
        HistoryBuilder builder = History.builder();
        builder.transaction("T1").predicate("t", UNCLOSED, Map.of("t/1", Map.of("a", 1))).write("t/2", Map.of("a", 1));
        builder.transaction("T2").read("t/1", Map.of("a", 1)).write("t/1", Map.of("a", 2));
        History history = builder.build();

        long started = System.nanoTime();
        CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(WITHIN.plus(WITHIN));
        assertThat(result.isUnknown()).isFalse();
        assertThat(String.join("\n", result.caveats())).contains(UNCLOSED);
    }

    private static SQLException syntaxError(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /**
     * Every parser thread idle a moment after the bound: a parse given up on must not keep a core
     * busy (its CPU time stops growing).
     */
    private static void assertParsersIdle() throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread.sleep(200);
        long before = parserCpuNanos(threads);
        Thread.sleep(500);
        assertThat(parserCpuNanos(threads) - before).as("CPU the parser threads used in half a second")
                .isLessThan(Duration.ofMillis(100).toNanos());
    }

    private static long parserCpuNanos(ThreadMXBean threads) {
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("isocheck-sql-parser")) {
                total += Math.max(0, threads.getThreadCpuTime(thread.getId()));
            }
        }
        return total;
    }

    /**
     * Under load a wall-clock bound can give up on a plain statement: a statement whose
     * parentheses balance, as every one a database accepts does, is given far longer than one
     * whose do not, where backtracking explodes.
     */
    @Test
    void aStatementWhoseParenthesesBalanceIsGivenLongerThanOneWhoseDoNot() {
        assertThat(SqlParsing.boundFor("SELECT qty FROM items WHERE id = ? AND (a = 1 OR (b = ')'))"))
                .isEqualTo(SqlParsing.SHALLOW_BOUND);
        assertThat(SqlParsing.boundFor(UNCLOSED)).isEqualTo(SqlParsing.BOUND);
        assertThat(SqlParsing.boundFor("a = 1))")).isEqualTo(SqlParsing.BOUND);
        assertThat(SqlParsing.boundFor("a = 'unclosed")).isEqualTo(SqlParsing.BOUND);
        assertThat(SqlParsing.boundFor("(a = 1)".repeat(5_000))).isEqualTo(SqlParsing.BOUND);
        assertThat(SqlParsing.SHALLOW_BOUND).isGreaterThan(SqlParsing.BOUND.multipliedBy(10));
    }
}
