package dev.isocheck.internal.limit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statements;

/**
 * JSqlParser under a time bound. Its "complex" parsing, tried when the simple one fails,
 * backtracks: a few unclosed parentheses ({@code (((( a = 1}) take minutes, and the parse runs
 * on whatever thread asked, the application's own when the recorder analyses a statement before
 * sending it. Every parse here runs on a daemon thread of its own and is given up at the bound,
 * the parser told to stop (its {@code interrupted} flag, which it polls), so that no core stays
 * busy after; a clause or statement given up on is one isocheck does not understand, which
 * every caller already treats conservatively.
 */
public final class SqlParsing {

    /**
     * How long a text whose parentheses do not balance, or a long one (more than
     * {@link #SHALLOW_LENGTH} characters), may take to parse, simple and complex attempts together:
     * where the parser's backtracking can take minutes ({@code (((( a = 1}).
     */
    public static final Duration BOUND = Duration.ofSeconds(2);

    /**
     * How long any other text may take. Real statements parse in milliseconds, and the first parse
     * in a JVM, loading the parser, in a few hundred; but a machine running a build on every core
     * can stall a thread for seconds, and a statement given up on is left out of the check. The
     * bound is a wall-clock one, so it must be far above any stall for a statement not to be left
     * out on one run and analysed on the next.
     */
    public static final Duration SHALLOW_BOUND = Duration.ofSeconds(30);

    /** The longest text parsed within {@link #SHALLOW_BOUND}. */
    static final int SHALLOW_LENGTH = 20_000;

    private static final ExecutorService PARSERS = Executors.newCachedThreadPool(r -> {
        // Daemons: a parse given up on must not keep the application's JVM from exiting.
        Thread thread = new Thread(r, "isocheck-sql-parser");
        thread.setDaemon(true);
        return thread;
    });

    private SqlParsing() {
    }

    /**
     * Parses a condition (a {@code where} clause), simple parsing first, within {@link #BOUND}.
     *
     * @throws JSQLParserException when it is not a condition JSqlParser reads, or took too long
     */
    public static Expression condition(String where) throws JSQLParserException {
        return bounded(where, configure -> CCJSqlParserUtil.parseCondExpression(where, false, configure));
    }

    /**
     * Parses one or more statements, simple parsing first, within {@link #BOUND}.
     *
     * @throws JSQLParserException when they are not SQL JSqlParser reads, or took too long
     */
    public static Statements statements(String sql) throws JSQLParserException {
        return bounded(sql, configure -> CCJSqlParserUtil.parseStatements(sql, PARSERS, configure));
    }

    /** A parse given up on at the bound. */
    public static final class TooLongToParse extends JSQLParserException {

        private static final long serialVersionUID = 1L;

        TooLongToParse(int characters, Duration bound, Throwable cause) {
            super("took longer than " + bound.toSeconds() + " s to parse (" + characters + " characters)", cause);
        }
    }

    /** A parse, given the configuration to apply to every parser it creates. */
    @FunctionalInterface
    private interface Parse<T> {
        T run(Consumer<CCJSqlParser> configure) throws JSQLParserException;
    }

    /**
     * The bound a text is parsed within: {@link #SHALLOW_BOUND} for a text of at most
     * {@link #SHALLOW_LENGTH} characters whose parentheses balance outside its quotes, as every
     * statement a database accepts does; {@link #BOUND} for any other, where backtracking can
     * explode.
     */
    static Duration boundFor(String text) {
        if (text.length() > SHALLOW_LENGTH) {
            return BOUND;
        }
        int depth = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                return BOUND;
            }
        }
        return depth == 0 && quote == 0 ? SHALLOW_BOUND : BOUND;
    }

    private static <T> T bounded(String text, Parse<T> parse) throws JSQLParserException {
        Duration bound = boundFor(text);
        long deadline = System.nanoTime() + bound.toNanos();
        List<CCJSqlParser> parsers = new CopyOnWriteArrayList<>();
        Consumer<CCJSqlParser> configure = parser -> {
            parsers.add(parser);
            // JSqlParser's own timeout, for the parses it runs on an executor: what is left of ours.
            parser.withTimeOut(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        };
        Future<T> future = PARSERS.submit(() -> parse.run(configure));
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            parsers.forEach(parser -> parser.interrupted = true);
            future.cancel(true);
            throw new TooLongToParse(text.length(), bound, e);
        } catch (InterruptedException e) {
            parsers.forEach(parser -> parser.interrupted = true);
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new JSQLParserException("interrupted while parsing", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof JSQLParserException unparsed) {
                throw unparsed;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new JSQLParserException(cause);
        }
    }
}
