package dev.isocheck.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.format.JsonlHistoryReader;
import dev.isocheck.history.History;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
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
                        Verdict verdict = new CheckPipeline().check(history, level);
                        assertThat(verdict).as("%s at %s", file, level)
                                .isInstanceOf(ok ? Verdict.Satisfied.class : Verdict.Violated.class);
                    }));
                }
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(9 * 3);
        return tests.stream();
    }

    private static List<String> expectations(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .filter(line -> line.startsWith("// expect:"))
                .flatMap(line -> Stream.of(line.substring("// expect:".length()).trim().split("\\s+")))
                .toList();
    }
}
