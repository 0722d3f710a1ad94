package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import dev.isocheck.history.History;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.explain.CheckAndExplain;
import dev.isocheck.internal.explain.CoreExplainer;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import dev.isocheck.internal.explain.WeakLevelExplainer;
import dev.isocheck.internal.explain.Explainer;
import dev.isocheck.internal.recording.jdbc.RecordingDataSource;
import dev.isocheck.internal.warmup.Background;
import java.util.Objects;
import javax.sql.DataSource;
import org.apiguardian.api.API;

/**
 * The entry point of the isocheck library: checks whether a {@link History} of transactions
 * satisfies an {@link IsolationLevel} and, when it does not, explains why. Everything else in
 * {@code dev.isocheck} is what goes in ({@link History}, {@link IsolationLevel},
 * {@link CheckOptions}) or what comes out ({@link CheckResult}, {@link Verdict}, and the
 * {@link dev.isocheck.explain.Explanation}).
 *
 * <pre>{@code
 * CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE);
 * result.explanationText().ifPresent(System.out::print);
 * }</pre>
 *
 * <p>"Satisfied" comes with a {@linkplain Verdict.Satisfied#witness() witness}, an order of the
 * committed transactions that explains their reads; "violated" with the evidence; and a history
 * the engine cannot decide is {@link Verdict.Unknown}, never a pass. Checks keep no state between
 * calls and may run on several threads at once.
 */
@API(status = STABLE, since = "0.1")
public final class Isocheck {

    private Isocheck() {
    }

    /**
     * Checks {@code history} at {@code level} with {@link CheckOptions#defaults()}.
     *
     * @param history the transactions, as recorded or read from a file
     * @param level   the level to hold them to
     * @return the verdict, with the explanation of a violation; never {@code null}
     * @throws NullPointerException if an argument is {@code null}
     * @see #check(History, IsolationLevel, CheckOptions)
     */
    public static CheckResult check(History history, IsolationLevel level) {
        return check(history, level, CheckOptions.defaults());
    }

    /**
     * Checks {@code history} at {@code level}, then explains a violation: the shortest cycles of
     * dependencies the level forbids, found among the transactions the verdict names or, failing
     * that, among a minimal set of transactions that still violates the level. When no explanation
     * can be given (the explainer's limits, or a failure in it), the violation still stands, with
     * an {@link dev.isocheck.explain.Explanation.Unexplained} that says why.
     *
     * <p>A check that would go past the options' {@linkplain CheckOptions#timeLimit() time limit}
     * or {@linkplain CheckOptions#withMemoryBudget memory budget}, or that exhausts the heap all
     * the same, answers {@link Verdict.Unknown} with the reason (the limit and the stage), and
     * what it built is garbage once it returns: a caller can go on with another history.
     *
     * @param history the transactions, as recorded or read from a file
     * @param level   the level to hold them to
     * @param options the engine, the check's time limit and memory budget, and the explanation's limits
     * @return the verdict, with the explanation of a violation; never {@code null}
     * @throws NullPointerException if an argument is {@code null}
     */
    public static CheckResult check(History history, IsolationLevel level, CheckOptions options) {
        return check(history, level, options, null);
    }

    /**
     * As {@link #check(History, IsolationLevel, CheckOptions)}, with {@code explainer} in place of
     * the one the options describe (tests: an explainer that fails), unless it is {@code null}.
     */
    static CheckResult check(History history, IsolationLevel level, CheckOptions options, Explainer explainer) {
        Objects.requireNonNull(history, "history is null");
        Objects.requireNonNull(level, "level is null");
        Objects.requireNonNull(options, "options is null");
        // The JUnit extension's warm-up, where one runs, stops first: no check shares the machine,
        // or its time limit, with it.
        Background.beforeCheck();
        CheckPipeline pipeline = new CheckPipeline(options);
        // The explainer decides restrictions of the history with the same pipeline, so that the
        // options (the GPU mode) hold for those checks too.
        Explainer explaining = explainer != null ? explainer : new WeakLevelExplainer(new CoreExplainer(new ExhaustiveExplainer(
                options.explainMaxTransactions(), ExhaustiveExplainer.DEFAULT_BUDGET, ExhaustiveExplainer.DEFAULT_MAX_CASES),
                pipeline, options.explainTimeLimit()));
        return CheckAndExplain.run(history, level, pipeline, explaining);
    }

    /**
     * Wraps {@code dataSource} so that the SQL transactions run on its connections are recorded for
     * a check: each transaction goes into the recording of the test running it, chosen when the
     * transaction starts; with no test recording, connections behave exactly as the real ones and
     * nothing is kept. The same recording is available as a JDBC URL, {@code jdbc:isocheck:<real
     * url>}, for code that opens connections through {@link java.sql.DriverManager}.
     *
     * <p>The application sees what it would see without the recorder (results, update counts,
     * exceptions and their SQLSTATEs, metadata), though the recorder sends a write in a form that
     * returns its rows ({@code RETURNING *} on PostgreSQL, {@code FINAL TABLE} on H2), and error
     * messages may quote that form. What the recorder cannot analyse it leaves out of the check and
     * lists, never guessing; {@code docs/recording.md} has the details.
     *
     * @param dataSource the application's data source
     * @return a data source recording into the current test's history
     * @throws NullPointerException if {@code dataSource} is {@code null}
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public static DataSource record(DataSource dataSource) {
        return RecordingDataSource.wrap(dataSource);
    }
}
