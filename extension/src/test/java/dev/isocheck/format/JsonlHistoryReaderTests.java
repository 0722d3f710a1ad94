package dev.isocheck.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Status;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonlHistoryReaderTests {

    @TempDir
    Path dir;

    /** The two example lines of the spec, verbatim. */
    private static final String SPEC_EXAMPLE = """
            {"init": {"x": 0, "accounts/1": {"id": 1, "balance": 100}}, "complete": true}
            {"id": "T7", "session": "worker-3", "status": "committed",
             "start": 1200, "end": 3400,
             "ops": [
               {"op": "read",  "key": "x", "value": 1},
               {"op": "write", "key": "x", "value": 2},
               {"op": "read",  "key": "accounts/9", "value": null},
               {"op": "write", "key": "accounts/1", "value": {"id": 1, "balance": 90}},
               {"op": "write", "key": "accounts/2", "value": null},
               {"op": "predicate", "table": "doctors", "where": "on_call = TRUE AND shift = 1",
                "rows": [{"key": "doctors/4", "value": {"id": 4, "on_call": true, "shift": 1}}]}
             ]}
            """;

    private Path file(String content) throws IOException {
        Path f = dir.resolve("h.jsonl");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    /** A file under {@code src/test/resources/format/}. */
    private static Path resource(String name) {
        try {
            return Path.of(JsonlHistoryReaderTests.class.getResource("/format/").toURI()).resolve(name).normalize();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private History read(String content) throws Exception {
        return new JsonlHistoryReader().read(file(content));
    }

    private HistoryFormatException error(String content) throws IOException {
        Path f = file(content);
        try {
            History h = new JsonlHistoryReader().read(f);
            throw new AssertionError("expected a HistoryFormatException, got " + h);
        } catch (HistoryFormatException e) {
            assertThat(e.file()).isEqualTo(f);
            assertThat(e.getMessage()).startsWith(f + ":").doesNotContain("\n");
            return e;
        }
    }

    private static Value value(History h, Transaction t, int i) {
        return h.values().get(t.value(i));
    }

    @Test
    void theSpecExampleReadsAsItSays() throws Exception {
        // The spec puts one object per line; its example wraps the transaction for reading, so join it.
        String[] lines = SPEC_EXAMPLE.split("\n", 2);
        History h = read(lines[0] + "\n" + lines[1].replace("\n", " ") + "\n");

        InitialState init = h.initialState();
        assertThat(init.isComplete()).isTrue();
        assertThat(h.values().get(init.valueOf(h.keys().idOf("x")))).isEqualTo(Value.of(0));
        assertThat(h.values().get(init.valueOf(h.keys().idOf("accounts/1"))))
                .isEqualTo(Value.of(Map.of("id", 1, "balance", 100)));
        assertThat(init.valueOf(h.keys().idOf("accounts/9"))).isEqualTo(ValueTable.ABSENT);

        assertThat(h.size()).isEqualTo(1);
        Transaction t = h.transaction(0);
        assertThat(t.id()).isEqualTo("T7");
        assertThat(t.hasNumericId()).isFalse();
        assertThat(h.sessionOf(t).name()).isEqualTo("worker-3");
        assertThat(h.sessionOf(t).isImplicit()).isFalse();
        assertThat(t.status()).isEqualTo(Status.COMMITTED);
        assertThat(t.start()).hasValue(1200);
        assertThat(t.end()).hasValue(3400);
        assertThat(t.size()).isEqualTo(6);
        assertThat(List.of(t.kind(0), t.kind(1), t.kind(2), t.kind(3), t.kind(4), t.kind(5))).containsExactly(
                OpKind.READ, OpKind.WRITE, OpKind.READ, OpKind.WRITE, OpKind.WRITE, OpKind.PREDICATE);
        assertThat(h.keys().name(t.key(0))).isEqualTo("x");
        assertThat(value(h, t, 0)).isEqualTo(Value.of(1));
        assertThat(value(h, t, 1)).isEqualTo(Value.of(2));
        assertThat(h.keys().name(t.key(2))).isEqualTo("accounts/9");
        assertThat(value(h, t, 2).isAbsent()).isTrue();
        assertThat(value(h, t, 3)).isEqualTo(Value.of(Map.of("id", 1, "balance", 90)));
        assertThat(h.keys().name(t.key(4))).isEqualTo("accounts/2");
        assertThat(t.value(4)).isEqualTo(ValueTable.ABSENT);
        PredicateRead p = t.predicate(5);
        assertThat(p.table()).isEqualTo("doctors");
        assertThat(p.where()).isEqualTo("on_call = TRUE AND shift = 1");
        assertThat(p.rows()).containsExactly(
                Map.entry("doctors/4", Value.of(Map.of("id", 4, "on_call", true, "shift", 1))));
    }

    @Test
    void defaultsCommentsBlankLinesAndKinds() throws Exception {
        History h = read("""
                // a comment
                {"init": {"x": 1, "gone": null}}

                   // an indented comment
                {"id": 1, "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "read", "key": "y", "value": [1, "a", 2.50]}]}
                {"id": "2", "session": "s", "status": "aborted", "start": 5, "ops": []}
                {"id": 3, "session": "s", "end": 9, "future": {"anything": true}, "ops": [
                  {"op": "write", "key": "x", "value": 1.0, "note": "unknown fields are ignored"}]}
                {"id": 4, "session": 7, "status": null, "start": null, "ops": [{"op": "predicate", "table": "t",
                  "where": "a = 1", "rows": [{"key": "t/2", "value": {"b": 1}}, {"key": "t/1", "value": {"a": 1}}]}]}
                """.replaceAll("\\[\\n\\s+", "[").replaceAll(",\\n\\s+", ", "));
        InitialState init = h.initialState();
        assertThat(init.isComplete()).isFalse();
        assertThat(h.values().get(init.valueOf(h.keys().idOf("x")))).isEqualTo(Value.of(1));
        assertThat(init.valueOf(h.keys().idOf("gone"))).isEqualTo(ValueTable.ABSENT);
        assertThat(init.valueOf(h.keys().idOf("y"))).isEqualTo(InitialState.UNKNOWN);

        assertThat(h.transactions()).extracting(Transaction::id).containsExactly("1", "2", "3", "4");
        Transaction t1 = h.transaction(0);
        assertThat(t1.hasNumericId()).isTrue();
        assertThat(h.sessionOf(t1).isImplicit()).isTrue();
        assertThat(t1.status()).isEqualTo(Status.COMMITTED);
        assertThat(t1.start()).isEmpty();
        assertThat(t1.end()).isEmpty();
        assertThat(value(h, t1, 1)).isEqualTo(Value.of(List.of(1, "a", new BigDecimal("2.5"))));

        Transaction t2 = h.transaction(1);
        assertThat(t2.hasNumericId()).isFalse();
        assertThat(t2.status()).isEqualTo(Status.ABORTED);
        assertThat(t2.start()).hasValue(5);
        assertThat(t2.end()).isEmpty();
        assertThat(t2.size()).isZero();

        Transaction t3 = h.transaction(2);
        assertThat(t3.start()).isEmpty();
        assertThat(t3.end()).hasValue(9);
        assertThat(value(h, t3, 0)).isEqualTo(Value.of(1));

        Session s = h.sessionOf(t2);
        assertThat(s.name()).isEqualTo("s");
        assertThat(s.transactions()).containsExactly(1, 2);
        assertThat(h.sessionOf(h.transaction(3)).name()).isEqualTo("7");
        assertThat(h.sessions()).hasSize(3);

        PredicateRead p = h.transaction(3).predicate(0);
        assertThat(p.rows()).extracting(Map.Entry::getKey).containsExactly("t/2", "t/1");
    }

    @Test
    void unknownSaysWhatAnUnlistedInitialValueMayBe() throws Exception {
        History any = read("{\"init\": {\"x\": 0}, \"unknown\": \"any\"}\n{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"y\", \"value\": 1}]}\n");
        assertThat(any.initialState().unknownValues()).isEqualTo(UnknownInitialValues.ANY);
        assertThat(any.initialState().mayBeAnyValue(any.keys().idOf("y"))).isTrue();
        assertThat(any.initialState().mayBeAnyValue(any.keys().idOf("x"))).as("listed").isFalse();
        assertThat(read("{\"init\": {}, \"unknown\": \"unwritten\"}\n").initialState().unknownValues())
                .isEqualTo(UnknownInitialValues.UNWRITTEN);
        assertThat(read("{\"init\": {}, \"unknown\": null}\n").initialState().unknownValues())
                .as("null is the default").isEqualTo(UnknownInitialValues.UNWRITTEN);
        assertThat(read("{\"id\": 1, \"ops\": []}\n").initialState().unknownValues())
                .as("no init line").isEqualTo(UnknownInitialValues.UNWRITTEN);
        History complete = read("{\"init\": {}, \"complete\": true, \"unknown\": \"any\"}\n"
                + "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"y\", \"value\": null}]}\n");
        assertThat(complete.initialState().mayBeAnyValue(0)).as("no key is unknown in a complete state").isFalse();
    }

    @Test
    void anEmptyFileIsAnEmptyHistory() throws Exception {
        History h = read("");
        assertThat(h.size()).isZero();
        assertThat(h.initialState().isComplete()).isFalse();
        assertThat(read("\n  \n// nothing\n").size()).isZero();
    }

    @Test
    void crlfLineEndsAndAByteOrderMarkAreAccepted() throws Exception {
        History h = read("\uFEFF{\"id\": 1, \"ops\": []}\r\n{\"id\": 2, \"ops\": []}\r\n");
        assertThat(h.transactions()).extracting(Transaction::id).containsExactly("1", "2");
    }

    @Test
    void aCarriageReturnAloneEndsALineAsACrlfDoes() throws Exception {
        // Read as one line, this file was a single comment, and its write skew passed unchecked.
        Path file = resource("cr-only-write-skew.jsonl");
        assertThat(Files.readString(file)).doesNotContain("\n").contains("\r");
        History h = new JsonlHistoryReader().read(file);
        assertThat(h.transactions()).extracting(Transaction::id).containsExactly("T1", "T2");
        assertThat(h.initialState().isComplete()).isTrue();
        assertThat(dev.isocheck.Isocheck.check(h, dev.isocheck.IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
    }

    /**
     * Lines are counted as Java's {@code BufferedReader} counts them (and Python's universal
     * newlines): LF, CRLF and CR each end one line, so LF CR is two line ends and CR CR LF two.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // line ends, \r and \n written as r and n | the line the error is on | the line the id was first on
        "r | 4 | 2",
        "rn | 4 | 2",
        "n | 4 | 2",
        "nr | 6 | 3",
        "rrn | 7 | 3",
    })
    void lineNumbersCountCrLfAndCrlfAlike(String ends, String line, String first) throws IOException {
        String end = ends.replace("r", "\r").replace("n", "\n");
        String content = String.join(end, "// one", "{\"id\": 1, \"ops\": []}", "", "{\"id\": 1, \"ops\": []}") + end;
        HistoryFormatException e = error(content);
        assertThat(e.place()).isEqualTo(line);
        assertThat(e.problem()).isEqualTo("duplicate transaction id \"1\" (first on line " + first + ")");
        List<String> lines = new java.io.BufferedReader(new java.io.StringReader(content)).lines().toList();
        assertThat(lines.get(Integer.parseInt(line) - 1)).as("as BufferedReader counts").isEqualTo("{\"id\": 1, \"ops\": []}");
        assertThat(lines.get(Integer.parseInt(first) - 1)).as("as BufferedReader counts").isEqualTo("{\"id\": 1, \"ops\": []}");
        assertThat(lines.subList(0, Integer.parseInt(line) - 1)).filteredOn(l -> l.startsWith("{")).hasSize(1);
    }

    @Test
    void mixedLineEndsAndAFinalLineWithoutEnd() throws Exception {
        History h = read("{\"id\": 1, \"ops\": []}\r{\"id\": 2, \"ops\": []}\r\n{\"id\": 3, \"ops\": []}\n\r\n"
                + "{\"id\": 4, \"ops\": []}");
        assertThat(h.transactions()).extracting(Transaction::id).containsExactly("1", "2", "3", "4");
        assertThat(error("\r\r\r{\"id\": 1}").place()).isEqualTo("4");
    }

    @Test
    void aCrlfSplitAcrossTheReadersChunksIsOneLineEnd() throws Exception {
        // The reader takes 64 KiB at a time: a CR ending one chunk and its LF starting the next.
        String comment = "//" + "c".repeat((1 << 16) - 3) + "\r";
        assertThat(comment).hasSize(1 << 16);
        assertThat(error(comment + "\n{\"id\": 1, \"ops\": []}\n{\"id\": 1, \"ops\": []}\n").place()).isEqualTo("3");
    }

    /**
     * Each misspelling issue 30 found, which without a word turned a violation into a pass: the
     * history with every field spelt right violates serializability, the misspelt one passes, and
     * the reader names each misspelt field, its line and the field it is nearest to.
     */
    @Test
    void misspeltFieldsAreWarnedOfWithTheFieldTheyAreNearest() throws Exception {
        Path misspelt = resource("misspelt-fields.jsonl");
        List<String> warnings = new java.util.ArrayList<>();
        History h = new JsonlHistoryReader().read(misspelt, warnings::add);
        assertThat(warnings).containsExactly(
                misspelt + ":2: unknown field \"compelte\" in the initial state, ignored; did you mean \"complete\"?",
                misspelt + ":3: unknown field \"sesion\" in a transaction, ignored; did you mean \"session\"? (and 1 more time)",
                misspelt + ":3: unknown field \"stauts\" in a transaction, ignored; did you mean \"status\"? (and 1 more time)",
                misspelt + ":4: unknown field \"opps\" in a transaction, ignored; did you mean \"ops\"?");
        assertThat(dev.isocheck.Isocheck.check(h, dev.isocheck.IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();

        String spelt = Files.readString(misspelt).replace("compelte", "complete").replace("sesion", "session")
                .replace("stauts", "status").replace("\"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1}], \"opps\"", "\"ops\"");
        warnings.clear();
        History right = new JsonlHistoryReader().read(file(spelt), warnings::add);
        assertThat(warnings).isEmpty();
        assertThat(dev.isocheck.Isocheck.check(right, dev.isocheck.IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
    }

    /** Each misspelling alone turns a violation into a pass, and is warned of. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // the field | its slip | a history that violates serializability with the field spelt right
        "status | stauts | {\"id\": \"T1\", \"status\": \"aborted\", \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 1}]}\\n"
                + "{\"id\": \"T2\", \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1}]}",
        "complete | compelte | {\"init\": {}, \"complete\": true}\\n{\"id\": \"T1\", \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 5}]}",
        "session | sesion | {\"init\": {\"x\": 0}, \"complete\": true}\\n"
                + "{\"id\": \"T1\", \"session\": \"a\", \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 1}]}\\n"
                + "{\"id\": \"T2\", \"session\": \"a\", \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 0}]}",
        "ops | opps | {\"init\": {}, \"complete\": true}\\n{\"id\": \"T1\", \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 5}]}",
    })
    void eachMisspellingAloneFlipsTheVerdictAndIsWarnedOf(String field, String slip, String history) throws Exception {
        String right = history.replace("\\n", "\n");
        assertThat(dev.isocheck.Isocheck.check(read(right), dev.isocheck.IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
        // A misspelt "ops" leaves the transaction without one, an error; beside an empty "ops" it is lost without one.
        String wrong = field.equals("ops") ? right.replace("\"ops\"", "\"ops\": [], \"opps\"")
                : right.replace("\"" + field + "\"", "\"" + slip + "\"");
        List<String> warnings = new java.util.ArrayList<>();
        History misspelt = new JsonlHistoryReader().read(file(wrong), warnings::add);
        assertThat(dev.isocheck.Isocheck.check(misspelt, dev.isocheck.IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
        assertThat(warnings).isNotEmpty().allSatisfy(w -> assertThat(w)
                .contains("unknown field \"" + slip + "\"", "did you mean \"" + field + "\"?"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // a line | the warning after the line number
        "{\"init\": {}, \"Complete\": true} | unknown field \"Complete\" in the initial state, ignored; did you mean \"complete\"?",
        "{\"id\": 1, \"statement\": [], \"ops\": []} | unknown field \"statement\" in a transaction, ignored; did you mean \"statements\"?",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1, \"statments\": 0}]} | unknown field \"statments\" in a read, ignored; did you mean \"statement\"?",
        "{\"id\": 1, \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 1, \"where\": \"a = 1\"}]} | unknown field \"where\" in a write, ignored (\"where\" is a field of a predicate read)",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a = 1\", \"row\": [], \"rows\": []}]} | unknown field \"row\" in a predicate read, ignored; did you mean \"rows\"?",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a = 1\", \"rows\": [{\"key\": \"t/1\", \"value\": 1, \"vaule\": 2}]}]} | unknown field \"vaule\" in a row of a predicate read, ignored; did you mean \"value\"?",
        "{\"id\": 1, \"statements\": [{\"sql\": \"SELECT 1\", \"params\": []}], \"ops\": []} | unknown field \"params\" in a statement, ignored",
        "{\"id\": 1, \"comment\": \"a newer writer's field\", \"ops\": []} | unknown field \"comment\" in a transaction, ignored",
    })
    void everyKindOfObjectHasItsFieldsChecked(String line, String warning) throws Exception {
        List<String> warnings = new java.util.ArrayList<>();
        Path f = file("// first\n" + line + "\n");
        new JsonlHistoryReader().read(f, warnings::add);
        assertThat(warnings).containsExactly(f + ":2: " + warning);
    }

    @Test
    void unknownFieldsAreWarnedOfBeforeTheErrorTheyMayExplain() throws Exception {
        List<String> warnings = new java.util.ArrayList<>();
        Path f = file("{\"id\": 1, \"opps\": []}\n");
        assertThatThrownBy(() -> new JsonlHistoryReader().read(f, warnings::add)).isInstanceOf(HistoryFormatException.class)
                .hasMessage(f + ":1: transaction \"1\" has no \"ops\" (write [] for none)");
        assertThat(warnings).containsExactly(f + ":1: unknown field \"opps\" in a transaction, ignored; did you mean \"ops\"?");
        assertThat(error("{\"Id\": 1, \"ops\": []}").problem())
                .isEqualTo("neither an initial state (no \"init\") nor a transaction (no \"id\"); did you mean \"id\" for \"Id\"?");
    }

    @Test
    void manyDistinctUnknownFieldsAreNamedUpToALimitThenCounted() throws Exception {
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < UnknownFields.MAX_WARNINGS + 5; i++) {
            content.append("{\"id\": ").append(i).append(", \"extra").append(i).append("\": 1, \"ops\": []}\n");
        }
        List<String> warnings = new java.util.ArrayList<>();
        Path f = file(content.toString());
        new JsonlHistoryReader().read(f, warnings::add);
        assertThat(warnings).hasSize(UnknownFields.MAX_WARNINGS + 1);
        assertThat(warnings.get(UnknownFields.MAX_WARNINGS)).isEqualTo(f + ":" + (UnknownFields.MAX_WARNINGS + 1)
                + ": 5 more unknown fields from this line on, ignored (only the first 20 distinct ones are named)");
        // A field of 40,000 characters (Jackson's limit is 50,000) is named by its beginning.
        warnings.clear();
        new JsonlHistoryReader().read(file("{\"id\": 1, \"" + "f".repeat(40_000) + "\": 1, \"ops\": []}"), warnings::add);
        assertThat(warnings).singleElement().asString().hasSizeLessThan(400)
                .contains("\"… (39,800 more characters) in a transaction, ignored");
    }

    @Test
    void readWithoutAListenerLogsItsWarnings() throws Exception {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.isocheck");
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                logged.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            Path f = file("{\"id\": 1, \"stauts\": \"aborted\", \"ops\": []}\n");
            new JsonlHistoryReader().read(f);
            assertThat(logged).containsExactly("WARNING " + f
                    + ":1: unknown field \"stauts\" in a transaction, ignored; did you mean \"status\"?");
        } finally {
            logger.removeHandler(handler);
        }
    }

    /** The known fields are complete: the spec's examples, the fuzz seeds (the examples' histories) and a recorded history warn of nothing. */
    @Test
    void historiesThatUseOnlyTheFormatsFieldsWarnOfNothing() throws Exception {
        List<String> warnings = new java.util.ArrayList<>();
        new JsonlHistoryReader().read(file(SPEC_EXAMPLE.replace("\n ", " ")), warnings::add);
        Path seeds = resource("../fuzz/seeds/jsonl");
        try (var files = Files.list(seeds)) {
            for (Path f : files.toList()) {
                new JsonlHistoryReader().read(f, warnings::add);
            }
        }
        new JsonlHistoryReader().read(resource("../samples/recorded/postgres-read-committed-hot-rows.jsonl"), warnings::add);
        assertThat(warnings).isEmpty();
    }

    /**
     * Nothing of the input is echoed whole, and no message passes on Jackson's advice (its
     * settings, in backquotes) that a user of the check command cannot act on.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // a line, with L for 10,000,000 a's | the problem, exactly or (ending in …) its start
        "{\"id\": 1, \"status\": \"L\", \"ops\": []} | \"status\" is \"aaaa…",
        "{\"id\": \"L\", \"ops\": [{\"op\": \"L\"}]} | ops[0]: unknown op \"aaaa…",
        "{\"id\": \"L\"} | transaction \"aaaa…",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\", \"rows\": [{\"key\": \"L\", \"value\": 1}]}]} | ops[0]: rows[0]: key \"aaaa…",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": NaN}]} | bad JSON at column 58: NaN is not a JSON number (JSON has no NaN or infinity; write such a value as a string)",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": -Infinity}]} | bad JSON at column 64: -Infinity is not a JSON number (JSON has no NaN or infinity; write such a value as a string)",
        "{\"id\": 1, \"ops\": []} {\"id\": 2} | bad JSON at column 22: more than one JSON value on the line (a line holds one object)",
        "{\"id\": +1, \"ops\": []} | bad JSON at column 9: Unexpected character ('+' (code 43)) in numeric value: JSON does not allow numbers to have plus signs",
        "{\"id\": 1, \"ops\": []} // note | bad JSON at column 22: unexpected '/': JSON has no comments (a comment is a line of its own, starting with //)",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]}]} | bad JSON at column",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1e2147483648}]} | bad JSON: the number 1e2147483648 is out of range",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": \"L | bad JSON at column 10000056: Unexpected end-of-input: was expecting closing quote for a string value",
    })
    void messagesEchoBoundedExcerptsInTheFormatsTerms(String line, String problem) throws IOException {
        HistoryFormatException e = error(line.replace("L", "a".repeat(10_000_000)));
        assertThat(e.getMessage()).hasSizeLessThan(1_000).doesNotContain("`", "enable", "Feature", "Constraints");
        if (problem.endsWith("…")) {
            assertThat(e.problem()).startsWith(problem.substring(0, problem.indexOf("aaaa")))
                    .contains("a".repeat(100) + "\"… (9,999,800 more characters)");
        } else {
            assertThat(e.problem()).startsWith(problem);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // what | the line, with N for the nesting or number | the problem
        "deep arrays | {\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": N}]} | bad JSON: arrays and objects nested more than 1,000 deep",
        "a huge number | {\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": D}]} | bad JSON: a number of 5,000,000 characters, more than the 1,000 a number may have",
        "a huge string | {\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": \"S\"}]} | bad JSON: a string of",
        "a huge field name | {\"id\": 1, \"S\": 1, \"ops\": []} | bad JSON: a field name of",
    })
    void jacksonsLimitsAreSaidAsTheFormats(String what, String line, String problem) throws IOException {
        String content = line.replace("N", "[".repeat(5_000) + "]".repeat(5_000)).replace("D", "9".repeat(5_000_000))
                .replace("S", "s".repeat(what.contains("name") ? 60_000 : 25_000_000));
        HistoryFormatException e = error(content);
        assertThat(e.place()).isEqualTo("1");
        assertThat(e.problem()).as(what).startsWith(problem).doesNotContain("`");
    }

    @Test
    void exactMessages() throws Exception {
        Path f = dir.resolve("h.jsonl");
        assertThat(error("{\"id\": 1, \"ops\": []}\n\n{\"id\": 2, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1},"
                + " {\"op\": \"raed\", \"key\": \"x\", \"value\": 1}]}\n").getMessage())
                .isEqualTo(f + ":3: ops[1]: unknown op \"raed\" (expected read, write or predicate)");
        assertThat(error("{\"id\": \"a\", \"ops\": []}\n{\"id\": \"b\", \"ops\": []}\n{\"id\": \"a\", \"ops\": []}\n").getMessage())
                .isEqualTo(f + ":3: duplicate transaction id \"a\" (first on line 1)");
        assertThat(error("{\"id\": 1, \"ops\": [{\"op\": \"write\", \"key\": \"x\"}]}").getMessage())
                .isEqualTo(f + ":1: ops[0]: write of \"x\" has no \"value\" (write null for an absent value)");
        assertThat(error("{\"id\": 1, \"ops\": []}\n{\"init\": {}}").getMessage())
                .isEqualTo(f + ":2: the initial state must come before the first transaction (line 1)");
        assertThat(error("{\"id\": 1, \"ops\": [}").getMessage())
                .isEqualTo(f + ":1: bad JSON at column 19: Unexpected close marker '}': expected ']'"
                        + " (for Array starting at column 18)");
        assertThat(error("{\"id\": 1, \"id\": 2, \"ops\": []}").getMessage())
                .startsWith(f + ":1: bad JSON at column ").contains("Duplicate field 'id'");
    }

    @Test
    void provenanceReadsAsTheThreadTheStatementsAndEachOperationsStatement() throws Exception {
        History h = read("{\"id\": \"T1\", \"session\": \"connection-3\", \"thread\": \"worker-1\", \"statements\": ["
                + "{\"sql\": \"SELECT on_call FROM doctors WHERE name = ?\", \"parameters\": [\"bob\"]},"
                + " {\"sql\": \"UPDATE doctors SET on_call = FALSE WHERE name = ?\", \"parameters\": [\"alice\"],"
                + " \"name\": \"DoctorDao.goOffCall\"}, {\"sql\": \"COMMIT\"}],"
                + " \"ops\": [{\"op\": \"read\", \"key\": \"doctors/bob\", \"value\": true, \"statement\": 0},"
                + " {\"op\": \"read\", \"key\": \"x\", \"value\": 1},"
                + " {\"op\": \"write\", \"key\": \"doctors/alice\", \"value\": false, \"statement\": 1},"
                + " {\"op\": \"read\", \"key\": \"doctors/bob\", \"value\": true, \"statement\": 0}]}\n"
                + "{\"id\": \"T2\", \"thread\": null, \"statements\": null, \"ops\": [{\"op\": \"read\", \"key\": \"x\","
                + " \"value\": 1, \"statement\": null}]}");
        Transaction t1 = h.transaction(0);
        assertThat(t1.thread()).contains("worker-1");
        assertThat(t1.statements()).containsExactly(
                SqlStatement.of("SELECT on_call FROM doctors WHERE name = ?", List.of("bob")),
                new SqlStatement("UPDATE doctors SET on_call = FALSE WHERE name = ?", List.of("alice"), Optional.of("DoctorDao.goOffCall")),
                SqlStatement.of("COMMIT", List.of()));
        assertThat(IntStream.range(0, t1.size()).mapToObj(i -> t1.statementOf(i).isPresent() ? t1.statementOf(i).getAsInt() : -1))
                .containsExactly(0, -1, 1, 0);
        Transaction t2 = h.transaction(1);
        assertThat(t2.thread()).isEmpty();
        assertThat(t2.statements()).isEmpty();
        assertThat(t2.statementOf(0)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // content | line | problem (exactly)
        "{\"id\": 1, \"thread\": 7, \"ops\": []} | 1 | \"thread\" must be a string, not a number (7)",
        "{\"id\": 1, \"statements\": {}, \"ops\": []} | 1 | \"statements\" must be an array of {\"sql\", \"parameters\", \"name\"} objects, not an object",
        "{\"id\": 1, \"statements\": [\"SELECT 1\"], \"ops\": []} | 1 | statements[0]: expected a {\"sql\", \"parameters\", \"name\"} object, found a string (\"SELECT 1\")",
        "{\"id\": 1, \"statements\": [{\"parameters\": []}], \"ops\": []} | 1 | statements[0]: statement has no \"sql\"",
        "{\"id\": 1, \"statements\": [{\"sql\": 1}], \"ops\": []} | 1 | statements[0]: statement: \"sql\" must be a string, not a number (1)",
        "{\"id\": 1, \"statements\": [{\"sql\": \"?\", \"parameters\": \"a\"}], \"ops\": []} | 1 | statements[0]: \"parameters\" must be an array of strings, not a string (\"a\")",
        "{\"id\": 1, \"statements\": [{\"sql\": \"?\", \"parameters\": [\"a\", 2]}], \"ops\": []} | 1 | statements[0]: parameters[1] must be a string (the parameter as text), not a number (2)",
        "{\"id\": 1, \"statements\": [{\"sql\": \"?\", \"name\": true}], \"ops\": []} | 1 | statements[0]: \"name\" must be a string, not a boolean (true)",
        "{\"id\": 1, \"statements\": [{\"sql\": \"?\"}], \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1, \"statement\": 1}]} | 1 | ops[0]: \"statement\" must be the index of one of the transaction's 1 statements (0 to 0), not a number (1)",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1, \"statement\": 0}]} | 1 | ops[0]: \"statement\" must be the index of one of the transaction's 0 statements, not a number (0)",
        "{\"id\": 1, \"statements\": [{\"sql\": \"?\"}], \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1, \"statement\": \"0\"}]} | 1 | ops[0]: \"statement\" must be the index of one of the transaction's 1 statements (0 to 0), not a string (\"0\")",
    })
    void badProvenanceNamesTheLineAndTheField(String content, String line, String problem) throws IOException {
        HistoryFormatException e = error(content);
        assertThat(e.place()).isEqualTo(line);
        assertThat(e.problem()).isEqualTo(problem);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // content | line | problem (start)
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"value\": 1}]} | 1 | ops[0]: read has no \"key\"",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": 3, \"value\": 1}]} | 1 | ops[0]: read: \"key\" must be a string, not a number (3)",
        "{\"id\": 1, \"ops\": [{\"key\": \"x\", \"value\": 1}]} | 1 | ops[0]: no \"op\" (expected read, write or predicate)",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\"}]} | 1 | ops[0]: read of \"x\" has no \"value\"",
        "{\"id\": 1, \"ops\": [5]} | 1 | ops[0]: expected an object, found a number (5)",
        "{\"id\": 1} | 1 | transaction \"1\" has no \"ops\"",
        "{\"id\": 1, \"ops\": {}} | 1 | \"ops\" must be an array, not an object",
        "{\"init\": {}}\\n{\"init\": {}} | 2 | a second initial state (the first is on line 1)",
        "{\"init\": [1]} | 1 | \"init\" must be an object mapping keys to values, not an array",
        "{\"init\": {}, \"complete\": \"yes\"} | 1 | \"complete\" must be true or false, not a string (\"yes\")",
        "{\"init\": {}, \"unknown\": \"sometimes\"} | 1 | \"unknown\" must be \"unwritten\" or \"any\", not a string (\"sometimes\")",
        "// first\\n{\"init\": {}, \"unknown\": \"ANY\"} | 2 | \"unknown\" must be \"unwritten\" or \"any\", not a string (\"ANY\")",
        "{\"init\": {}, \"unknown\": true} | 1 | \"unknown\" must be \"unwritten\" or \"any\", not a boolean (true)",
        "{\"init\": {}, \"id\": 1, \"ops\": []} | 1 | a line is either an initial state (\"init\") or a transaction (\"id\"), not both",
        "{\"ops\": []} | 1 | neither an initial state (no \"init\") nor a transaction (no \"id\")",
        "[1, 2] | 1 | expected a JSON object (an initial state or a transaction), found an array",
        "{\"id\": 1.5, \"ops\": []} | 1 | \"id\" must be a string or a 64-bit integer, not a number (1.5)",
        "{\"id\": 99999999999999999999, \"ops\": []} | 1 | \"id\" must be a string or a 64-bit integer",
        "{\"id\": 1, \"ops\": []}\\n{\"id\": \"1\", \"ops\": []} | 2 | duplicate transaction id \"1\" (first on line 1)",
        "{\"id\": 1, \"session\": true, \"ops\": []} | 1 | \"session\" must be a string or an integer, not a boolean (true)",
        "{\"id\": 1, \"status\": \"commited\", \"ops\": []} | 1 | \"status\" is \"commited\" (expected committed or aborted)",
        "{\"id\": 1, \"status\": 1, \"ops\": []} | 1 | \"status\" must be a string, not a number (1)",
        "{\"id\": 1, \"start\": \"5\", \"ops\": []} | 1 | \"start\" must be an integer (a 64-bit clock reading), not a string (\"5\")",
        "{\"id\": 1, \"end\": 2.5, \"ops\": []} | 1 | \"end\" must be an integer",
        "{\"id\": 1, \"start\": 9, \"end\": 8, \"ops\": []} | 1 | \"end\" (8) is before \"start\" (9)",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"where\": \"a = 1\", \"rows\": []}]} | 1 | ops[0]: predicate has no \"table\"",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"rows\": []}]} | 1 | ops[0]: predicate has no \"where\"",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\"}]} | 1 | ops[0]: predicate has no \"rows\"",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\", \"rows\": [{\"key\": \"u/1\", \"value\": 1}]}]} | 1 | ops[0]: rows[0]: key \"u/1\" is not in table \"t\" (its keys start with \"t/\")",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\", \"rows\": [{\"key\": \"t/1\"}]}]} | 1 | ops[0]: rows[0]: row of \"t/1\" has no \"value\"",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\", \"rows\": [{\"key\": \"t/1\", \"value\": 1}, {\"key\": \"t/1\", \"value\": 1}]}]} | 1 | ops[0]: rows[1]: key \"t/1\" is returned twice",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\", \"rows\": [{\"key\": \"t/1\", \"value\": 1}, {\"key\": \"t/2\", \"value\": null}]}]} | 1 | ops[0]: rows[1]: row of \"t/2\" has \"value\": null, but a predicate read returns only rows that exist",
        "{\"id\": 1, \"id\": 2, \"ops\": []} | 1 | bad JSON at column",
        "{\"id\": 1, \"ops\": []} {\"id\": 2, \"ops\": []} | 1 | bad JSON",
        "// fine\\n{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"a\\nb\", \"value\": 1}]} | 2 | bad JSON",
    })
    void malformedLinesNameTheLineAndTheProblem(String content, String line, String problem) throws IOException {
        HistoryFormatException e = error(content.replace("\\n", "\n"));
        assertThat(e.place()).isEqualTo(line);
        assertThat(e.problem()).startsWith(problem);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // Jackson throws NumberFormatException for an exponent beyond an int
        "{\"id\": 1, \"ops\": []}\\n{\"id\": 2, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1e2147483648}]} | 2 | bad JSON",
        // BigInteger conversion: an ArithmeticException, or a minute and a gigabyte
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 1e999999999}]} | 1 | ops[0]: read: the number 1E+999999999 is out of range",
        "{\"id\": 1, \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": {\"a\": [1e100000000]}}]} | 1 | ops[0]: write: the number 1E+100000000 is out of range",
        "{\"id\": 1, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": -1e-999999999}]} | 1 | ops[0]: read: the number -1E-999999999 is out of range",
        "{\"init\": {\"x\": 1e999999999}} | 1 | init: \"x\": the number 1E+999999999 is out of range",
        "{\"id\": 1, \"ops\": [{\"op\": \"predicate\", \"table\": \"t\", \"where\": \"a\", \"rows\": [{\"key\": \"t/1\", \"value\": {\"a\": 1e999999999}}]}]} | 1 | ops[0]: rows[0]: row: the number 1E+999999999 is out of range",
    })
    void absurdNumbersAreErrorsOnTheirLine(String content, String line, String problem) throws IOException {
        long started = System.nanoTime();
        HistoryFormatException e = error(content.replace("\\n", "\n"));
        assertThat(e.place()).isEqualTo(line);
        assertThat(e.problem()).startsWith(problem);
        assertThat(System.nanoTime() - started).as("rejected before any expensive conversion").isLessThan(5_000_000_000L);
    }

    @Test
    void largeButReasonableNumbersAreRead() throws Exception {
        History h = read("{\"id\": 1, \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 1e400},"
                + " {\"op\": \"write\", \"key\": \"y\", \"value\": 12345678901234567890123}]}");
        Transaction t = h.transactions().get(0);
        assertThat(value(h, t, 0)).isEqualTo(Value.of(new BigDecimal("1e400")));
        assertThat(value(h, t, 1)).isEqualTo(Value.of(new BigDecimal("12345678901234567890123")));
    }

    @Test
    void invalidUtf8IsAnErrorOnItsLine() throws IOException {
        Path f = dir.resolve("bad.jsonl");
        byte[] good = "{\"id\": 1, \"ops\": []}\n".getBytes(StandardCharsets.UTF_8);
        byte[] bad = "{\"id\": 2, \"session\": \"\u00e9\", \"ops\": []}\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[good.length + bad.length];
        System.arraycopy(good, 0, all, 0, good.length);
        System.arraycopy(bad, 0, all, good.length, bad.length);
        Files.write(f, all);
        assertThatThrownBy(() -> new JsonlHistoryReader().read(f))
                .isInstanceOf(HistoryFormatException.class)
                .hasMessage(f + ":2: not valid UTF-8 at byte 23 of the line (0xe9)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // bytes after {"id": 1, "session": " (22 bytes) | the problem
        "ff | not valid UTF-8 at byte 23 of the line (0xff)",
        "c0 80 | not valid UTF-8 at byte 23 of the line (0xc0)",
        "ed a0 80 | not valid UTF-8 at byte 23 of the line (0xed 0xa0 0x80)",
        "61 e2 82 | not valid UTF-8 at byte 24 of the line (0xe2 0x82)",
        "61 62 80 | not valid UTF-8 at byte 25 of the line (0x80)",
    })
    void badUtf8IsLocatedToTheByteOfItsLine(String hex, String problem) throws IOException {
        byte[] head = "{\"id\": 0, \"ops\": []}\n{\"id\": 1, \"session\": \"".getBytes(StandardCharsets.UTF_8);
        byte[] bad = java.util.HexFormat.ofDelimiter(" ").parseHex(hex);
        byte[] tail = "\", \"ops\": []}\n".getBytes(StandardCharsets.UTF_8);
        Path f = dir.resolve("bad.jsonl");
        Files.write(f, concat(head, bad, tail));
        assertThatThrownBy(() -> new JsonlHistoryReader().read(f)).isInstanceOf(HistoryFormatException.class)
                .hasMessage(f + ":2: " + problem);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void aMissingFileIsAnIoException() {
        assertThatThrownBy(() -> new JsonlHistoryReader().read(dir.resolve("none.jsonl")))
                .isInstanceOf(IOException.class);
    }
}
