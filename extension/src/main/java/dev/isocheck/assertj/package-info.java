/**
 * AssertJ assertions on recorded histories: {@code IsocheckAssertions.assertThat(history)}
 * {@code .isSerializable()}, {@code .satisfies(level)}, {@code .violates(level)},
 * {@code .hasAnomaly(...)}, whose failure messages are isocheck's explanations; and on the
 * running test's {@link dev.isocheck.Recording}, the same and {@code .hasNothingLeftOut()}.
 *
 * <p>AssertJ is an optional dependency of isocheck, and this is the only package that refers to
 * it: the rest of isocheck loads and records without AssertJ on the class path.
 */
package dev.isocheck.assertj;
