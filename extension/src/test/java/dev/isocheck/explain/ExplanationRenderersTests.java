package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.explain.ExhaustiveExplainer;
import dev.isocheck.internal.explain.Explainer;
import dev.isocheck.internal.explain.ClassicHistories;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.SqlStatement;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("renderers: text, JSON, DOT, HTML")
class ExplanationRenderersTests {

    private static final Explainer EXPLAINER = new ExhaustiveExplainer();
    private static final List<Supplier<History>> CLASSICS = List.of(ClassicHistories::writeSkew, ClassicHistories::lostUpdate,
            ClassicHistories::readSkew, ClassicHistories::longFork, ClassicHistories::writeCycle,
            ClassicHistories::phantomWriteSkew, ClassicHistories::abortedRead, ClassicHistories::intermediateRead);

    private static Explanation writeSkew() {
        return EXPLAINER.explain(ClassicHistories.writeSkew(), IsolationLevel.SERIALIZABLE);
    }

    private static Explanation lostUpdateAtSnapshotIsolation() {
        return EXPLAINER.explain(ClassicHistories.lostUpdate(), IsolationLevel.SNAPSHOT_ISOLATION);
    }

    /** Issue 14's toggle, read with the default "unknown": "unwritten": G1c resting on flag's initial value. */
    private static Explanation toggle() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("flag", false).write("flag", true);
        b.transaction("T2").read("flag", true).write("flag", false);
        return EXPLAINER.explain(b.build(), IsolationLevel.SERIALIZABLE);
    }

    @Test
    void everyRendererSaysWhatTheExplanationRestsOnAndHowToStateTheInitialState() throws Exception {
        Explanation toggle = toggle();
        assertThat(toggle.premises()).extracting(Assumption.UnwrittenInitialValue::text).containsExactly(
                "T1 read flag = false, taken not to be flag's initial value because T2 writes flag = false",
                "T2 read flag = true, taken not to be flag's initial value because T1 writes flag = true");
        assertThat(toggle.premises().get(0).writers()).containsExactly("T2");
        assertThat(toggle.premises().get(0).read().text()).isEqualTo("read flag = false");

        String text = new TextRenderer("  ").render(toggle);
        assertThat(text).contains("""
                    This rests on flag's unknown initial value being one no transaction writes:
                      T1 read flag = false, taken not to be flag's initial value because T2 writes flag = false
                      T2 read flag = true, taken not to be flag's initial value because T1 writes flag = true
                    By default ("unknown": "unwritten") an initial value the history does not list is one no
                    transaction writes. If the database may have held such a value before the history began (rows
                    that existed already, a flag set and cleared again), state the initial state instead: list the
                    initial values in the init line ({"init": {"flag": ...}}), or declare that unlisted ones may be
                    any value ({"init": {}, "unknown": "any"}).
                """);
        assertThat(text.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));

        JsonNode json = new ObjectMapper().readTree(new JsonRenderer().render(toggle));
        JsonNode premise = json.get("premises").get(1);
        assertThat(premise.get("kind").asText()).isEqualTo("unwritten-initial-value");
        assertThat(premise.get("key").asText()).isEqualTo("flag");
        assertThat(premise.get("writers").toString()).isEqualTo("[\"T1\"]");
        assertThat(premise.get("read").get("transaction").asText()).isEqualTo("T2");
        assertThat(premise.get("text").asText()).startsWith("T2 read flag = true, taken not to be");
        assertThat(json.get("premisesAdvice").asText()).contains("{\"init\": {}, \"unknown\": \"any\"}");
        assertThat(new ObjectMapper().readTree(new JsonRenderer().render(writeSkew())).has("premises")).isFalse();

        assertThat(new DotRenderer().render(toggle)).contains("label=\"G1c at serializable: a cycle of 2 transactions\\n"
                + "This rests on flag's unknown initial value being one no transaction writes:\\n"
                + "T1 read flag = false, taken not to be flag's initial value because T2 writes flag = false\\n");
        assertThat(new HtmlRenderer().render(toggle)).contains("<section class=\"premises\">",
                "<li>T1 read flag = false, taken not to be flag&#39;s initial value because T2 writes flag = false</li>",
                "({&quot;init&quot;: {}, &quot;unknown&quot;: &quot;any&quot;})");
        assertThat(new HtmlRenderer().render(writeSkew())).doesNotContain("class=\"premises\"");
    }

    @Test
    void textShowsTheCycleEachEdgeAndEachTransaction() {
        assertThat(new TextRenderer().render(writeSkew())).isEqualTo("""
                G2-item (write skew) at serializable: a cycle of 2 transactions
                  T1 -rw x-> T2 -rw y-> T1

                    T1 -rw x-> T2  T1 read x = 0, the initial value; T2 installed a later version, x = 1, so T1 did
                                   not see T2's write
                    T2 -rw y-> T1  T2 read y = 0, the initial value; T1 installed a later version, y = 1, so T2 did
                                   not see T1's write

                  A serializable order would put each transaction before the next one around the cycle, and so the
                  last before the first: no order can.

                  Transactions:
                    T1  session alice  time 100..180
                        0  read x = 0
                        1  read y = 0
                        2  write y = 1
                    T2  session bob  time 110..190
                        0  read x = 0
                        1  read y = 0
                        2  write x = 1
                """);
    }

    /**
     * Write skew as a recorder sees it: threads, connections, statements with parameters (one
     * named, one that did nothing, an operation with none).
     */
    private static Explanation recordedWriteSkew() {
        HistoryBuilder b = History.builder().initialValue("doctors/alice", true).initialValue("doctors/bob", true);
        b.transaction("T1").session("connection-1").thread("pool-1-thread-1")
                .statement(SqlStatement.of("BEGIN", List.of()))
                .statement(SqlStatement.of("SELECT on_call FROM doctors WHERE name = ?", List.of("bob")))
                .read("doctors/bob", true)
                .statement(new SqlStatement("UPDATE doctors SET on_call = ? WHERE name = ?", List.of("false", "alice"),
                        Optional.of("DoctorDao.goOffCall")))
                .write("doctors/alice", false)
                .fromStatement(-1).read("doctors/alice", false);
        b.transaction("T2").session("connection-2").thread("pool-1-thread-2")
                .statement(SqlStatement.of("SELECT on_call FROM doctors WHERE name = ?", List.of("alice")))
                .read("doctors/alice", true)
                .statement(new SqlStatement("UPDATE doctors SET on_call = ? WHERE name = ?", List.of("false", "bob"),
                        Optional.of("DoctorDao.goOffCall")))
                .write("doctors/bob", false);
        return EXPLAINER.explain(b.build(), IsolationLevel.SERIALIZABLE);
    }

    @Test
    void textOfARecordedHistoryShowsThreadsConnectionsAndTheSqlBehindEachOperationAndEdge() {
        assertThat(new TextRenderer().render(recordedWriteSkew())).isEqualTo("""
                G2-item (write skew) at serializable: a cycle of 2 transactions
                  T1 -rw doctors/bob-> T2 -rw doctors/alice-> T1

                    T1 -rw doctors/bob-> T2    T1 read doctors/bob = true, the initial value; T2 installed a later
                                               version, doctors/bob = false, so T1 did not see T2's write
                                               T1: SELECT on_call FROM doctors WHERE name = ?  [bob]
                                               T2: DoctorDao.goOffCall: UPDATE doctors SET on_call = ? WHERE name =
                                                   ?  [false, bob]
                    T2 -rw doctors/alice-> T1  T2 read doctors/alice = true, the initial value; T1 installed a later
                                               version, doctors/alice = false, so T2 did not see T1's write
                                               T2: SELECT on_call FROM doctors WHERE name = ?  [alice]
                                               T1: DoctorDao.goOffCall: UPDATE doctors SET on_call = ? WHERE name =
                                                   ?  [false, alice]

                  A serializable order would put each transaction before the next one around the cycle, and so the
                  last before the first: no order can.

                  Transactions:
                    T1  session connection-1  thread pool-1-thread-1
                        BEGIN
                        SELECT on_call FROM doctors WHERE name = ?  [bob]
                          0  read doctors/bob = true
                        DoctorDao.goOffCall: UPDATE doctors SET on_call = ? WHERE name = ?  [false, alice]
                          1  write doctors/alice = false
                        2  read doctors/alice = false
                    T2  session connection-2  thread pool-1-thread-2
                        SELECT on_call FROM doctors WHERE name = ?  [alice]
                          0  read doctors/alice = true
                        DoctorDao.goOffCall: UPDATE doctors SET on_call = ? WHERE name = ?  [false, bob]
                          1  write doctors/bob = false
                """);
    }

    @Test
    void jsonAndHtmlOfARecordedHistoryCarryThreadsAndStatements() throws Exception {
        JsonNode json = new ObjectMapper().readTree(new JsonRenderer().render(recordedWriteSkew()));
        JsonNode t1 = json.get("transactions").get(0);
        assertThat(t1.get("thread").asText()).isEqualTo("pool-1-thread-1");
        assertThat(t1.get("statements").toString()).isEqualTo("[{\"sql\":\"BEGIN\",\"parameters\":[]},"
                + "{\"sql\":\"SELECT on_call FROM doctors WHERE name = ?\",\"parameters\":[\"bob\"]},"
                + "{\"sql\":\"UPDATE doctors SET on_call = ? WHERE name = ?\",\"parameters\":[\"false\",\"alice\"],"
                + "\"name\":\"DoctorDao.goOffCall\"}]");
        assertThat(t1.get("operations").get(0).get("statement").asInt()).isEqualTo(1);
        assertThat(t1.get("operations").get(2).has("statement")).isFalse();
        assertThat(json.get("edges").get(0).get("fromOperations").get(0).get("statement").asInt()).isEqualTo(1);
        JsonNode plain = new ObjectMapper().readTree(new JsonRenderer().render(writeSkew())).get("transactions").get(0);
        assertThat(plain.has("thread")).isFalse();
        assertThat(plain.has("statements")).isFalse();

        String html = new HtmlRenderer().render(recordedWriteSkew());
        assertThat(html).contains("<th>thread</th>", "<td>pool-1-thread-1</td>",
                "<div class=\"sql\"><code>DoctorDao.goOffCall: UPDATE doctors SET on_call = ? WHERE name = ?  [false, alice]</code></div>",
                "<div class=\"sql\"><code>T1: SELECT on_call FROM doctors WHERE name = ?  [bob]</code></div>",
                ">thread pool-1-thread-1</text>");
        assertThat(new HtmlRenderer().render(writeSkew())).doesNotContain("<th>thread</th>", "class=\"sql\"");
    }

    @Test
    void textOfACaseAnalysisGivesEachCase() {
        assertThat(new TextRenderer().render(lostUpdateAtSnapshotIsolation())).startsWith("""
                G-single (lost update) at snapshot-isolation: 2 cases, a cycle of at most 2 transactions in each
                  Whichever of T1 and T2 installed x first, a cycle forms:

                  Case 1 of 2, if T1's x = 1 was installed before T2's x = 2:
                    G-single (lost update): T1 -ww x-> T2 -rw x-> T1
                      T1 -ww x-> T2  T1's x = 1 was installed before T2's x = 2 (assumed in this case)
                """);
    }

    @Test
    void textOfAReadAnomalyNamesTheReadAndTheWrite() {
        assertThat(new TextRenderer().render(EXPLAINER.explain(ClassicHistories.abortedRead(), IsolationLevel.SERIALIZABLE)))
                .isEqualTo("""
                        G1a (dirty read, aborted read) at serializable
                          T2 read x = 5, but only T1 wrote x = 5, and T1 aborted

                          the read: T2 operation 0, read x = 5
                          a write of a transaction that aborted: T1 operation 0, write x = 5

                          Transactions:
                            T1  session alice  aborted
                                0  write x = 5
                            T2  session bob
                                0  read x = 5
                        """);
    }

    @Test
    void textFitsA100ColumnConsoleWithoutColour() {
        for (Supplier<History> classic : CLASSICS) {
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                String text = new TextRenderer().render(EXPLAINER.explain(classic.get(), level));
                assertThat(text.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
                assertThat(text).doesNotContain("\u001b").endsWith("\n");
            }
        }
        List<String> lines = new java.util.ArrayList<>();
        TextRenderer.wrap("x".repeat(250), "  ", "    ", lines);
        assertThat(lines).hasSize(3).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
    }

    @Test
    void jsonNamesTheAnomalyTheCycleAndTheEdges() throws Exception {
        JsonNode json = new ObjectMapper().readTree(new JsonRenderer().render(writeSkew()));
        assertThat(json.get("kind").asText()).isEqualTo("cycles");
        assertThat(json.get("anomaly").asText()).isEqualTo("G2-item");
        assertThat(json.get("familiar").asText()).isEqualTo("write skew");
        assertThat(json.get("certain").asBoolean()).isTrue();
        assertThat(json.get("cycle").toString()).isEqualTo("[\"T1\",\"T2\"]");
        JsonNode edge = json.get("edges").get(0);
        assertThat(edge.get("from").asText()).isEqualTo("T1");
        assertThat(edge.get("to").asText()).isEqualTo("T2");
        assertThat(edge.get("type").asText()).isEqualTo("rw");
        assertThat(edge.get("key").asText()).isEqualTo("x");
        assertThat(edge.get("because").asText()).startsWith("T1 read x = 0, the initial value");
        assertThat(edge.get("fromOperations").get(0).get("index").asInt()).isZero();
        assertThat(edge.get("toOperations").get(0).get("value").asInt()).isEqualTo(1);
        assertThat(json.get("transactions").get(0).get("session").asText()).isEqualTo("alice");
        assertThat(json.get("transactions").get(0).get("start").asLong()).isEqualTo(100);
    }

    @Test
    void jsonOfACaseAnalysisHasNoSingleCycle() throws Exception {
        JsonNode json = new ObjectMapper().readTree(new JsonRenderer().render(lostUpdateAtSnapshotIsolation()));
        assertThat(json.get("certain").asBoolean()).isFalse();
        assertThat(json.get("cycle").isNull()).isTrue();
        assertThat(json.get("cases")).hasSize(2);
        JsonNode assumption = json.get("cases").get(0).get("assuming").get(0);
        assertThat(assumption.get("kind").asText()).isEqualTo("version-order");
        assertThat(assumption.get("earlier").asText()).isEqualTo("T1");
        assertThat(assumption.get("later").asText()).isEqualTo("T2");
        assertThat(json.get("cases").get(0).get("edges").get(0).get("assumed").asBoolean()).isTrue();
    }

    @Test
    void jsonOfAReadAnomalyAndOfNoExplanation() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode read = mapper.readTree(new JsonRenderer().render(EXPLAINER.explain(ClassicHistories.intermediateRead(),
                IsolationLevel.SERIALIZABLE)));
        assertThat(read.get("kind").asText()).isEqualTo("read");
        assertThat(read.get("anomaly").asText()).isEqualTo("G1b");
        assertThat(read.get("read").get("transaction").asText()).isEqualTo("T2");
        assertThat(read.get("related").get(0).get("role").asText()).isEqualTo("a write its transaction overwrote before committing");
        JsonNode none = mapper.readTree(new JsonRenderer().render(EXPLAINER.explain(ClassicHistories.writeSkew(),
                IsolationLevel.SNAPSHOT_ISOLATION)));
        assertThat(none.get("kind").asText()).isEqualTo("unexplained");
        assertThat(none.get("anomaly").isNull()).isTrue();
        assertThat(none.get("reason").asText()).startsWith("no cycle proves it");
    }

    @Test
    void dotDrawsTheCycleWithTypedEdges() {
        assertThat(new DotRenderer().render(writeSkew())).isEqualTo("""
                digraph explanation {
                  label="G2-item (write skew) at serializable: a cycle of 2 transactions";
                  labelloc=t;
                  fontname="Helvetica";
                  node [shape=box, style=rounded, fontname="Helvetica"];
                  edge [fontname="Helvetica"];
                  "T1" [label="T1\\nsession alice\\ntime 100..180"];
                  "T2" [label="T2\\nsession bob\\ntime 110..190"];
                  "T1" -> "T2" [label="rw x", color="#c62828", fontcolor="#c62828", tooltip="T1 read x = 0, the initial value; \
                T2 installed a later version, x = 1, so T1 did not see T2's write"];
                  "T2" -> "T1" [label="rw y", color="#c62828", fontcolor="#c62828", tooltip="T2 read y = 0, the initial value; \
                T1 installed a later version, y = 1, so T2 did not see T1's write"];
                }
                """);
        assertThat(new DotRenderer().render(lostUpdateAtSnapshotIsolation())).contains("subgraph cluster_1 {", "subgraph cluster_2 {",
                "\"case2:T2\" -> \"case2:T1\" [label=\"ww x\"");
        assertThat(DotRenderer.quote("a \"b\"\\c\nd")).isEqualTo("\"a \\\"b\\\"\\\\c\\nd\"");
    }

    @Test
    void htmlIsSelfContainedAndDrawsEachCase() {
        for (Supplier<History> classic : CLASSICS) {
            String html = new HtmlRenderer().render(EXPLAINER.explain(classic.get(), IsolationLevel.SERIALIZABLE));
            assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
                    .doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("http:").doesNotContainIgnoringCase("https:")
                    .doesNotContainIgnoringCase(" src=").doesNotContainIgnoringCase("<link").doesNotContainIgnoringCase("@import");
        }
        String lostUpdate = new HtmlRenderer().render(lostUpdateAtSnapshotIsolation());
        assertThat(lostUpdate.split("<svg ", -1)).hasSize(3);
        assertThat(lostUpdate).contains("marker-end=\"url(#c1-ww)\"", "marker-end=\"url(#c2-rw)\"", ">ww x</text>",
                "Whichever of T1 and T2 installed x first, a cycle forms:");
    }

    @Test
    void htmlEscapesWhatTheHistorySays() {
        HistoryBuilder b = History.builder().initialValue("<x>", "a&b").initialValue("y", 0).initialStateComplete(true);
        b.transaction("T\"1").session("<s>").read("<x>", "a&b").write("y", 1);
        b.transaction("T2").read("y", 0).write("<x>", "</td>");
        String html = new HtmlRenderer().render(EXPLAINER.explain(b.build(), IsolationLevel.SERIALIZABLE));
        assertThat(html).contains("&lt;x&gt;", "a&amp;b", "T&quot;1", "&lt;s&gt;", "&lt;/td&gt;").doesNotContain("<x>", "<s>",
                "\"</td>");
    }
}
