package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import dev.isocheck.internal.explain.ClassicHistories;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A row a predicate read did not return, as a first-class part of the edge it justifies (issue 32):
 * the {@link UnreturnedRow} on the {@link Dependency}, and the sentence, the predicate and both
 * statements in text, JSON, DOT and HTML.
 */
@DisplayName("edges that rest on a row a predicate read did not return")
class UnreturnedRowTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Explanation explain(History history) {
        return new ExhaustiveExplainer().explain(history, IsolationLevel.SERIALIZABLE);
    }

    /**
     * Hermitage's G-single with a write predicate at READ COMMITTED, as a recorder sees it: T1 reads
     * row 1; T2 reads both rows and changes both; T1's {@code DELETE ... WHERE value = ?} with 20
     * re-checks row 2 against T2's version, 18, and deletes nothing. {@code where} is the predicate
     * as recorded, {@code delete} the DELETE's SQL; every row has {@code note} in a column of that
     * name, when not {@code null}, for a predicate to say something about.
     */
    private static Explanation gSingleWithAWritePredicate(String where, String delete, String note) {
        HistoryBuilder b = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T1").session("connection-1")
                .statement(SqlStatement.of("SELECT * FROM test WHERE id = ?", List.of("1")))
                .read("test/1", row(1, 10, note))
                .statement(new SqlStatement(delete, List.of("20"), Optional.of("TestDao.deleteTwenties")))
                .predicate("test", where, Map.of());
        b.transaction("T2").session("connection-2")
                .statement(SqlStatement.of("SELECT * FROM test", List.of()))
                .predicate("test", "TRUE", Map.of("test/1", row(1, 10, note), "test/2", row(2, 20, note)))
                .statement(SqlStatement.of("UPDATE test SET value = ? WHERE id = ?", List.of("11", "1")))
                .write("test/1", row(1, 11, note))
                .statement(SqlStatement.of("UPDATE test SET value = ? WHERE id = ?", List.of("18", "2")))
                .write("test/2", row(2, 18, note));
        return explain(b.build());
    }

    private static Map<String, Object> row(int id, int value, String note) {
        return note == null ? Map.of("id", id, "value", value) : Map.of("id", id, "value", value, "note", note);
    }

    private static Explanation gSingleWithAWritePredicate() {
        return gSingleWithAWritePredicate("value = 20", "DELETE FROM test WHERE value = ?", null);
    }

    /**
     * T1's SELECT left t/1 out, having seen T3's {@code v = 5} (the initial 20 matches); T2 read
     * T3's version and wrote 20 back, and T1 read T2's y: in the case that orders T3's t/1 before
     * T2's, a G-single through T1's predicate read-write edge.
     */
    private static Explanation missedALaterVersion() {
        HistoryBuilder b = History.builder().initialValue("t/1", Map.of("id", 1, "v", 20)).initialValue("y", 0)
                .initialStateComplete(true);
        b.transaction("T3").statement(SqlStatement.of("UPDATE t SET v = ? WHERE id = ?", List.of("5", "1")))
                .write("t/1", Map.of("id", 1, "v", 5));
        b.transaction("T1").statement(SqlStatement.of("SELECT * FROM t WHERE v = ?", List.of("20")))
                .predicate("t", "v = 20", Map.of()).statement(SqlStatement.of("SELECT y FROM c", List.of())).read("y", 1);
        b.transaction("T2").statement(SqlStatement.of("SELECT v FROM t WHERE id = ?", List.of("1")))
                .read("t/1", Map.of("id", 1, "v", 5))
                .statement(SqlStatement.of("UPDATE t SET v = ? WHERE id = ?", List.of("20", "1")))
                .write("t/1", Map.of("id", 1, "v", 20)).statement(SqlStatement.of("UPDATE c SET y = 1", List.of()))
                .write("y", 1);
        return explain(b.build());
    }

    private static Dependency edge(Explanation explanation, DependencyType type, String key) {
        return ((Explanation.Cycles) explanation).cases().stream().flatMap(c -> c.cycle().edges().stream())
                .filter(e -> e.type() == type && e.key().equals(Optional.of(key))).findFirst().orElseThrow();
    }

    private static JsonNode jsonEdge(JsonNode edges, String type) {
        for (JsonNode edge : edges) {
            if (edge.get("type").asText().equals(type)) {
                return edge;
            }
        }
        throw new AssertionError("no " + type + " edge in " + edges);
    }

    @Nested
    @DisplayName("on the edge")
    class OnTheEdge {

        @Test
        void aWriteReadEdgeIntoTheReadCarriesTheVersionItSaw() {
            Dependency wr = edge(gSingleWithAWritePredicate(), DependencyType.WRITE_READ, "test/2");
            UnreturnedRow row = wr.unreturnedRow().orElseThrow();
            assertThat(row.reader()).isEqualTo("T1");
            assertThat(row.read()).isEqualTo(wr.toOperations().get(0));
            assertThat(row.read().index()).isEqualTo(1);
            assertThat(row.read().kind()).isEqualTo(OpKind.PREDICATE);
            assertThat(row.statement().orElseThrow().sql()).isEqualTo("DELETE FROM test WHERE value = ?");
            assertThat(row.table()).isEqualTo("test");
            assertThat(row.where()).isEqualTo("value = 20");
            assertThat(row.key()).isEqualTo("test/2");
            UnreturnedRow.Version saw = row.saw().orElseThrow();
            assertThat(saw.writer()).contains("T2");
            assertThat(saw.value()).contains(Value.row(Map.of("id", 2, "value", 18)));
            assertThat(saw.write()).contains(wr.fromOperations().get(0));
            assertThat(saw.statement().orElseThrow().parameters()).containsExactly("18", "2");
            assertThat(row.missed()).isEmpty();
            assertThat(row.text()).isEqualTo("T1's DELETE FROM test WHERE value = ? [20] did not match test/2: it saw T2's"
                    + " version, {\"id\":2,\"value\":18}, which does not satisfy value = 20");
            assertThat(wr.reason()).startsWith(row.text() + " (not the initial version: ");
            // The item anti-dependency of the same cycle rests on no predicate.
            assertThat(edge(gSingleWithAWritePredicate(), DependencyType.READ_WRITE, "test/1").unreturnedRow()).isEmpty();
        }

        @Test
        void aPredicateReadWriteEdgeCarriesTheVersionItSawAndTheOneItMissed() {
            Dependency prw = edge(explain(ClassicHistories.phantomWriteSkew()), DependencyType.PREDICATE_READ_WRITE, "bookings/b");
            UnreturnedRow row = prw.unreturnedRow().orElseThrow();
            assertThat(row.statement()).isEmpty();
            assertThat(row.saw()).contains(UnreturnedRow.Version.initial(Optional.of(Value.ABSENT)));
            UnreturnedRow.Version missed = row.missed().orElseThrow();
            assertThat(missed.writer()).contains("T2");
            assertThat(missed.write()).contains(prw.toOperations().get(0));
            assertThat(prw.reason()).isEqualTo("T1's read of bookings where room = 1 did not return bookings/b: it saw the"
                    + " initial version, in which bookings/b did not exist; T2 installed a later version, bookings/b ="
                    + " {\"room\":1,\"who\":\"bob\"}, so T1 did not see T2's write");
        }

        @Test
        void aVersionAThirdTransactionInstalledIsNamedWithItsStatement() {
            Dependency prw = edge(missedALaterVersion(), DependencyType.PREDICATE_READ_WRITE, "t/1");
            UnreturnedRow row = prw.unreturnedRow().orElseThrow();
            assertThat(row.saw().orElseThrow().writer()).contains("T3");
            assertThat(row.missed().orElseThrow().writer()).contains("T2");
            assertThat(prw.reason()).isEqualTo("T1's SELECT * FROM t WHERE v = ? [20] did not match t/1: it saw T3's"
                    + " version, {\"id\":1,\"v\":5}, which does not satisfy v = 20; T2's t/1 = {\"id\":1,\"v\":20} was"
                    + " installed after it (in this case), so T1 did not see T2's write");
            List<TransactionSummary> transactions = ((Explanation.Cycles) missedALaterVersion()).transactions();
            assertThat(Wording.edgeStatements(prw, transactions)).containsExactly("T1: SELECT * FROM t WHERE v = ?  [20]",
                    "T2: UPDATE t SET v = ? WHERE id = ?  [20, 1]", "T3: UPDATE t SET v = ? WHERE id = ?  [5, 1]");
        }

        @Test
        void whereSeveralVersionsRemainTheSentenceNamesThemAndTheRecordNone() {
            // T1 left t/1 out, having seen T3's 5 or T4's 6 (the initial 20 matches); T2 overwrote T4's.
            HistoryBuilder b = History.builder().initialValue("t/1", Map.of("id", 1, "v", 20)).initialValue("y", 0)
                    .initialStateComplete(true);
            b.transaction("T3").write("t/1", Map.of("id", 1, "v", 5));
            b.transaction("T4").read("t/1", Map.of("id", 1, "v", 5)).write("t/1", Map.of("id", 1, "v", 6));
            b.transaction("T1").predicate("t", "v = 20", Map.of()).read("y", 1);
            b.transaction("T2").read("t/1", Map.of("id", 1, "v", 6)).write("t/1", Map.of("id", 1, "v", 20)).write("y", 1);
            Dependency prw = edge(explain(b.build()), DependencyType.PREDICATE_READ_WRITE, "t/1");
            assertThat(prw.unreturnedRow().orElseThrow().saw()).isEmpty();
            assertThat(prw.unreturnedRow().orElseThrow().missed().orElseThrow().writer()).contains("T2");
            assertThat(prw.reason()).isEqualTo("T1's read of t where v = 20 did not return t/1: it saw a version that does"
                    + " not satisfy v = 20, T3's or T4's; T2's t/1 = {\"id\":1,\"v\":20} was installed after each of them"
                    + " (in this case), so T1 did not see T2's write");
        }

        @Test
        void theEightArgumentConstructorMakesAnEdgeWithoutOne() {
            Dependency edge = new Dependency("T1", "T2", DependencyType.READ_WRITE, Optional.of("x"), List.of(), List.of(),
                    false, "because");
            assertThat(edge.unreturnedRow()).isEmpty();
            assertThat(edge).hasToString("T1 -rw x-> T2: because");
        }
    }

    @Nested
    @DisplayName("the sentence")
    class Sentence {

        private final OperationRef read = new OperationRef("T1", 0, -1, OpKind.PREDICATE, Optional.of("t/2"), Optional.empty(),
                "read t where v = 20 did not return t/2", OptionalInt.of(0));

        private UnreturnedRow row(Optional<SqlStatement> statement, Optional<UnreturnedRow.Version> saw) {
            return new UnreturnedRow("T1", read, statement, "t", "v = 20", "t/2", saw, Optional.empty());
        }

        @Test
        void anUnknownInitialValueIsSaidToFailThePredicateIfTheRowExisted() {
            assertThat(row(Optional.empty(), Optional.of(UnreturnedRow.Version.initial(Optional.empty()))).text())
                    .isEqualTo("T1's read of t where v = 20 did not return t/2: it saw the initial version, which, if t/2"
                            + " existed, does not satisfy v = 20");
        }

        @Test
        void aDeleteIsSaidToBeOne() {
            UnreturnedRow.Version deleted = new UnreturnedRow.Version(Optional.of("T2"), Optional.of(Value.ABSENT),
                    Optional.empty(), Optional.empty());
            assertThat(row(Optional.empty(), Optional.of(deleted)).text())
                    .isEqualTo("T1's read of t where v = 20 did not return t/2: it saw T2's delete of t/2");
        }

        @Test
        void withSeveralVersionsPossibleOnlyTheirFailingThePredicateIsSaid() {
            assertThat(row(Optional.empty(), Optional.empty()).text())
                    .isEqualTo("T1's read of t where v = 20 did not return t/2: it saw a version that does not satisfy v = 20");
        }

        @Test
        void theStatementIsQuotedOnOneLineAndLongOnesAreCut() {
            SqlStatement multiline = SqlStatement.of("DELETE FROM t\n\tWHERE v = ?\n", List.of("20"));
            assertThat(row(Optional.of(multiline), Optional.empty()).text())
                    .startsWith("T1's DELETE FROM t WHERE v = ? [20] did not match t/2: ");
            SqlStatement huge = SqlStatement.of("SELECT * FROM t WHERE v = ? AND note <> '" + "n".repeat(5000) + "'",
                    List.of("20"));
            String text = row(Optional.of(huge), Optional.empty()).text();
            assertThat(text).contains("nnn… did not match t/2: ").hasSizeLessThan(300);
        }
    }

    @Nested
    @DisplayName("rendered")
    class Rendered {

        @Test
        void textSaysWhatTheStatementSawAndListsBothStatements() {
            String text = new TextRenderer().render(gSingleWithAWritePredicate());
            assertThat(text).contains("""
                        T2 -wr test/2-> T1  T1's DELETE FROM test WHERE value = ? [20] did not match test/2: it saw T2's
                                            version, {"id":2,"value":18}, which does not satisfy value = 20 (not the
                                            initial version: test/2's initial value, which T2's read of test where TRUE
                                            (operation 0) returned as {"id":2,"value":20}, satisfies the predicate)
                                            T2: UPDATE test SET value = ? WHERE id = ?  [18, 2]
                                            T1: TestDao.deleteTwenties: DELETE FROM test WHERE value = ?  [20]
                    """);
            assertThat(text.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(TextRenderer.WIDTH));
        }

        @Test
        void jsonGivesTheEdgeAPredicateWithBothStatements() throws Exception {
            JsonNode edges = JSON.readTree(new JsonRenderer().render(gSingleWithAWritePredicate())).get("edges");
            assertThat(jsonEdge(edges, "rw").has("predicate")).isFalse();
            JsonNode predicate = jsonEdge(edges, "wr").get("predicate");
            assertThat(predicate.get("reader").asText()).isEqualTo("T1");
            assertThat(predicate.get("read").get("index").asInt()).isEqualTo(1);
            assertThat(predicate.get("read").get("statement").asInt()).isEqualTo(1);
            assertThat(predicate.get("statement").toString()).isEqualTo("{\"sql\":\"DELETE FROM test WHERE value = ?\","
                    + "\"parameters\":[\"20\"],\"name\":\"TestDao.deleteTwenties\"}");
            assertThat(predicate.get("table").asText()).isEqualTo("test");
            assertThat(predicate.get("where").asText()).isEqualTo("value = 20");
            assertThat(predicate.get("key").asText()).isEqualTo("test/2");
            JsonNode saw = predicate.get("saw");
            assertThat(saw.get("writer").asText()).isEqualTo("T2");
            assertThat(saw.get("value").toString()).isEqualTo("{\"id\":2,\"value\":18}");
            assertThat(saw.get("write").get("index").asInt()).isEqualTo(2);
            assertThat(saw.get("statement").toString()).isEqualTo("{\"sql\":\"UPDATE test SET value = ? WHERE id = ?\","
                    + "\"parameters\":[\"18\",\"2\"]}");
            assertThat(predicate.get("missed").isNull()).isTrue();
            assertThat(predicate.get("text").asText()).startsWith("T1's DELETE FROM test WHERE value = ? [20] did not match");
        }

        @Test
        void jsonOfAPhantomSaysTheInitialVersionWasAbsentAndNamesTheMissedOne() throws Exception {
            JsonNode edges = JSON.readTree(new JsonRenderer().render(explain(ClassicHistories.phantomWriteSkew()))).get("edges");
            JsonNode predicate = edges.get(0).get("predicate");
            assertThat(predicate.has("statement")).isFalse();
            assertThat(predicate.get("saw").get("writer").isNull()).isTrue();
            // Known to be absent: null, where an unknown value would have no "value" at all.
            assertThat(predicate.get("saw").has("value")).isTrue();
            assertThat(predicate.get("saw").get("value").isNull()).isTrue();
            assertThat(predicate.get("saw").get("write").isNull()).isTrue();
            assertThat(predicate.get("missed").get("writer").asText()).isEqualTo("T2");
            assertThat(predicate.get("missed").get("value").toString()).isEqualTo("{\"room\":1,\"who\":\"bob\"}");
        }

        @Test
        void dotNamesThePredicateInTheEdgesLabel() {
            String dot = new DotRenderer().render(gSingleWithAWritePredicate());
            assertThat(dot).contains("\"T2\" -> \"T1\" [label=\"wr test/2 (where value = 20)\", color=\"#1e8a3a\"",
                    "tooltip=\"T1's DELETE FROM test WHERE value = ? [20] did not match test/2: it saw T2's version,"
                            + " {\\\"id\\\":2,\\\"value\\\":18}, which does not satisfy value = 20",
                    "\"T1\" -> \"T2\" [label=\"rw test/1\"");
            assertThat(new DotRenderer().render(explain(ClassicHistories.phantomWriteSkew())))
                    .contains("[label=\"predicate-rw bookings/b (where room = 1)\", color=\"#7b3fa0\"");
        }

        @Test
        void dotEscapesAndCutsThePredicate() {
            // Every row's note is "-": the ORs select what value = 20 does, and the literals say what they like.
            String where = "value = 20 OR note = 'a\\\" ] ; x -> y [label=\"pwned\n' OR note = '" + "n".repeat(50) + "'";
            String dot = new DotRenderer().render(gSingleWithAWritePredicate(where, "DELETE FROM test WHERE value = ?", "-"));
            String label = where.substring(0, 40).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
            assertThat(dot).contains("[label=\"wr test/2 (where " + label + "…)\", color=");
            // Every line is a statement or a brace: nothing the predicate said began a line of its own.
            assertThat(dot.lines().skip(6)).allSatisfy(line -> assertThat(line).matches(" *(\".*\";|\".*\"];|[{}]|subgraph .*)"));
        }

        @Test
        void htmlShowsTheSentenceAndBothStatementsEscaped() {
            String html = new HtmlRenderer().render(gSingleWithAWritePredicate("value = 20 OR note = '<b>'",
                    "DELETE FROM test WHERE value = ? OR note = '<b>'", "-"));
            String where = "value = 20 OR note = &#39;&lt;b&gt;&#39;";
            assertThat(html).contains("<li><code style=\"color:#1e8a3a\">T2 -wr test/2-&gt; T1</code> T1&#39;s DELETE FROM test"
                            + " WHERE value = ? OR note = &#39;&lt;b&gt;&#39; [20] did not match test/2: it saw T2&#39;s version,"
                            + " {&quot;id&quot;:2,&quot;note&quot;:&quot;-&quot;,&quot;value&quot;:18}, which does not satisfy "
                            + where + " (not the initial version",
                    "<div class=\"sql\"><code>T2: UPDATE test SET value = ? WHERE id = ?  [18, 2]</code></div>"
                            + "<div class=\"sql\"><code>T1: TestDao.deleteTwenties: DELETE FROM test WHERE value = ? OR note"
                            + " = &#39;&lt;b&gt;&#39;  [20]</code></div></li>",
                    // The drawing's label is cut at 40 cells; hovering shows the sentence.
                    "satisfies the predicate)</title>wr test/2 (where value = 20 OR note = &#39;…</text>")
                    .doesNotContain("<b>");
        }
    }
}
