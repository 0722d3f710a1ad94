/**
 * The public API of isocheck: {@link dev.isocheck.Isocheck} checks a
 * {@link dev.isocheck.history.History} of transactions at an {@link dev.isocheck.IsolationLevel}
 * and answers a {@link dev.isocheck.CheckResult}, the {@link dev.isocheck.Verdict} with the
 * {@link dev.isocheck.explain.Explanation} of a violation. In JUnit Jupiter tests,
 * {@link dev.isocheck.SerializableCheck @SerializableCheck} records each test's transactions and
 * checks them after the test, failing it with an {@link dev.isocheck.IsolationViolationError}.
 *
 * <p>What is supported is marked with apiguardian's {@code @API}, as in JUnit 5: {@code STABLE}
 * types keep their contract across minor versions, {@code EXPERIMENTAL} ones may still change, and
 * {@code INTERNAL} members (the interned integer layout of a history) are public only for isocheck's
 * own modules. The public packages are this one, {@link dev.isocheck.history} (the model),
 * {@link dev.isocheck.format} (history files), {@link dev.isocheck.explain} (explanations and their
 * renderers) and {@link dev.isocheck.spi} (for reachability engines, not for users). Nothing under
 * {@code dev.isocheck.internal} is API.
 *
 * <pre>{@code
 * // Write skew: each transaction reads what the other one writes, and both read the initial values.
 * HistoryBuilder builder = History.builder().initialValue("x", 0).initialValue("y", 0);
 * builder.transaction("T1").read("x", 0).write("y", 1);
 * builder.transaction("T2").read("y", 0).write("x", 1);
 * History history = builder.build();
 *
 * CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE);
 * result.explanationText().ifPresent(System.out::print);
 * // G2-item (write skew) at serializable: a cycle of 2 transactions
 * //   T1 -rw x-> T2 -rw y-> T1
 * // ...
 * }</pre>
 *
 * <p>Every check answers: one that would go past its time limit or its memory budget
 * ({@link dev.isocheck.CheckOptions#withTimeLimit}, {@link dev.isocheck.CheckOptions#withMemoryBudget})
 * is {@link dev.isocheck.Verdict.Unknown} with the reason, never a pass and never an exception;
 * and a pass lists what it did not check in {@link dev.isocheck.CheckResult#caveats()}.
 */
package dev.isocheck;
