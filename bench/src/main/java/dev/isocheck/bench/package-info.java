/**
 * Benchmarks of the checking engine (issue 3): {@link dev.isocheck.bench.Workloads} generates
 * large histories whose verdict is known by construction, following the workloads of Cobra,
 * VeriStrong and Vbox, and {@link dev.isocheck.bench.EngineBenchmark} times a
 * {@link dev.isocheck.internal.engine.Checker} on them and on the VeriStrong sample histories.
 * {@link dev.isocheck.bench.ExplainBenchmark} measures the explanations; the other programs time one
 * stage each: {@link dev.isocheck.bench.ReadExplanationsBenchmark},
 * {@link dev.isocheck.bench.SatCheckerBenchmark}, {@link dev.isocheck.bench.ReachabilityBenchmark} and
 * {@link dev.isocheck.bench.GpuReachabilityBenchmark}.
 */
package dev.isocheck.bench;
