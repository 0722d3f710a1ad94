package dev.isocheck.examples;

import static dev.isocheck.hamcrest.IsocheckMatchers.hasAnomaly;
import static dev.isocheck.hamcrest.IsocheckMatchers.serializable;
import static dev.isocheck.hamcrest.IsocheckMatchers.violates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

import dev.isocheck.IsolationLevel;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.format.JsonlHistoryReader;
import dev.isocheck.history.History;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.hamcrest.MatcherAssert;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example history in {@code examples/histories} gets the verdicts its
 * {@code // expect: level=ok|violation ...} line promises, so the README's demonstration stays true.
 */
class ExampleHistoriesTests {

    private static final Path HISTORIES = Path.of("histories");

    @TestFactory
    Stream<DynamicTest> examplesGetTheirExpectedVerdicts() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(HISTORIES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                List<String> expectations = expectations(file);
                assertThat(expectations).as("%s has an '// expect:' line", file).isNotEmpty();
                for (String expectation : expectations) {
                    String[] parts = expectation.split("=");
                    IsolationLevel level = IsolationLevel.fromName(parts[0]);
                    boolean ok = parts[1].equals("ok");
                    tests.add(DynamicTest.dynamicTest(file.getFileName() + " at " + level, () -> {
                        History history = new JsonlHistoryReader().read(file);
                        if (ok) {
                            IsocheckAssertions.assertThat(history).as("%s", file).satisfies(level);
                        } else {
                            IsocheckAssertions.assertThat(history).as("%s", file).violates(level);
                        }
                    }));
                }
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(9 * 3);
        return tests.stream();
    }

    /** The anomalies the histories are named after, by the names developers use, in AssertJ's idiom. */
    @Test
    void eachNamedAnomalyIsTheOneShown() throws Exception {
        IsocheckAssertions.assertThat(read("write-skew.jsonl")).satisfies(IsolationLevel.SNAPSHOT_ISOLATION)
                .violates(IsolationLevel.SERIALIZABLE).hasAnomaly("write skew");
        IsocheckAssertions.assertThat(read("lost-update.jsonl")).hasAnomaly("lost update");
        IsocheckAssertions.assertThat(read("read-skew.jsonl")).hasAnomaly("read skew");
        IsocheckAssertions.assertThat(read("stale-read.jsonl")).isSerializable()
                .violates(IsolationLevel.STRICT_SERIALIZABLE).hasAnomaly("stale read");
    }

    /** The same in Hamcrest's idiom. */
    @Test
    void inHamcrestsWordsToo() throws Exception {
        MatcherAssert.assertThat(read("bank-transfers.jsonl"), is(serializable()));
        MatcherAssert.assertThat(read("doctors-on-call.jsonl"), hasAnomaly(IsolationLevel.SERIALIZABLE, "write skew"));
        MatcherAssert.assertThat(read("long-fork.jsonl"), violates(IsolationLevel.SNAPSHOT_ISOLATION));
    }

    private static History read(String name) throws Exception {
        return new JsonlHistoryReader().read(HISTORIES.resolve(name));
    }

    private static List<String> expectations(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .filter(line -> line.startsWith("// expect:"))
                .flatMap(line -> Stream.of(line.substring("// expect:".length()).trim().split("\\s+")))
                .toList();
    }
}
