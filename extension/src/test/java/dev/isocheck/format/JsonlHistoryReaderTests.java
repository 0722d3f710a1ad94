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
                .hasMessage(f + ":2: not valid UTF-8");
    }

    @Test
    void aMissingFileIsAnIoException() {
        assertThatThrownBy(() -> new JsonlHistoryReader().read(dir.resolve("none.jsonl")))
                .isInstanceOf(IOException.class);
    }
}
