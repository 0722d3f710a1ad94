/**
 * Random histories from simulated databases, for tests and benchmarks.
 *
 * <p>A {@link dev.isocheck.internal.simulate.HistoryGenerator} runs a {@link dev.isocheck.internal.simulate.Workload}
 * against a {@link dev.isocheck.internal.simulate.SimulatedDatabase} (serial, snapshot isolation, read
 * committed, or one with an injected bug) and records what the clients observed as a
 * {@link dev.isocheck.history.History}. Everything is reproducible from a seed, and the generator
 * reports every bug it actually injected, so tests can assert exactly what a checker must find.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.simulate;
