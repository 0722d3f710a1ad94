package dev.isocheck.internal.explain;

import dev.isocheck.explain.TextRenderer;
import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.OperationRef;
import dev.isocheck.explain.ReadAnomaly;
import dev.isocheck.explain.TransactionSummary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@DisplayName("ExhaustiveExplainer: each classic anomaly, its name and its minimal cycle")
class ExhaustiveExplainerTests {

    private static final Explainer EXPLAINER = new ExhaustiveExplainer();
    private static final IsolationLevel SER = IsolationLevel.SERIALIZABLE;
    private static final IsolationLevel SI = IsolationLevel.SNAPSHOT_ISOLATION;
    private static final IsolationLevel SSER = IsolationLevel.STRICT_SERIALIZABLE;

    private static Explanation.Cycles cycles(History history, IsolationLevel level) {
        Explanation explanation = EXPLAINER.explain(history, level);
        assertThat(explanation).as("%s", explanation).isInstanceOf(Explanation.Cycles.class);
        return (Explanation.Cycles) explanation;
    }

    private static AnomalyCycle certain(History history, IsolationLevel level) {
        Explanation.Cycles cycles = cycles(history, level);
        assertThat(cycles.isCertain()).as("one certain cycle: %s", cycles).isTrue();
        return cycles.cases().get(0).cycle();
    }

    private static List<String> types(AnomalyCycle cycle) {
        return cycle.edges().stream().map(e -> e.type().shortName() + e.key().map(k -> " " + k).orElse("")).toList();
    }

    @Nested
    @DisplayName("cycles")
    class Cycles {

        @Test
        void writeSkewIsAG2ItemOfTwoAtSerializabilityAndAllowedAtSnapshotIsolation() {
            AnomalyCycle cycle = certain(ClassicHistories.writeSkew(), SER);
            assertThat(cycle.anomaly()).isEqualTo("G2-item");
            assertThat(cycle.familiarName()).contains("write skew");
            assertThat(cycle.transactions()).containsExactly("T1", "T2");
            assertThat(types(cycle)).containsExactly("rw x", "rw y");
            assertThat(cycle.edges().get(0).reason())
                    .isEqualTo("T1 read x = 0, the initial value; T2 installed a later version, x = 1, so T1 did not see T2's write");
            assertThat(cycle.edges().get(0).fromOperations()).extracting(OperationRef::text).containsExactly("read x = 0");
            assertThat(cycle.edges().get(0).toOperations()).extracting(OperationRef::text).containsExactly("write x = 1");
            assertThat(cycle.edges().get(0).assumed()).isFalse();
            assertThat(EXPLAINER.explain(ClassicHistories.writeSkew(), SI)).isInstanceOf(Explanation.Unexplained.class);
        }

        @Test
        void lostUpdateIsOneCertainCycleOfTwoAtSerializability() {
            AnomalyCycle cycle = certain(ClassicHistories.lostUpdate(), SER);
            assertThat(cycle.length()).isEqualTo(2);
            assertThat(cycle.familiarName()).contains("lost update");
            assertThat(types(cycle)).containsExactly("rw x", "rw x");
        }

        @Test
        void lostUpdateAtSnapshotIsolationIsWhicheverWroteFirst() {
            // Snapshot isolation allows two adjacent anti-dependencies, so the certain rw-rw cycle
            // proves nothing there; each version order closes a G-single instead.
            Explanation.Cycles cycles = cycles(ClassicHistories.lostUpdate(), SI);
            assertThat(cycles.cases()).hasSize(2);
            assertThat(cycles.anomaly()).isEqualTo("G-single");
            assertThat(cycles.longest()).isEqualTo(2);
            assertThat(new TextRenderer().render(cycles).lines().map(String::strip)).contains("Whichever of T1 and T2 installed x first, a cycle forms:");
            assertThat(cycles.cases()).allSatisfy(c -> {
                assertThat(c.cycle().familiarName()).contains("lost update");
                assertThat(c.assuming()).singleElement().isInstanceOf(Assumption.VersionOrder.class);
            });
            assertThat(cycles.cases().get(0).assuming().get(0).text()).isEqualTo("T1's x = 1 was installed before T2's x = 2");
            assertThat(types(cycles.cases().get(0).cycle())).containsExactly("ww x", "rw x");
            assertThat(cycles.cases().get(0).cycle().edges().get(0).assumed()).isTrue();
        }

        @Test
        void readSkewIsAGSingleOfTwoAtEveryLevel() {
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                AnomalyCycle cycle = certain(ClassicHistories.readSkew(), level);
                assertThat(cycle.anomaly()).isEqualTo("G-single");
                assertThat(cycle.familiarName()).contains("read skew");
                assertThat(types(cycle)).containsExactly("wr y", "rw x");
            }
        }

        @Test
        void longForkIsAGNonadjacentOfFourAtEveryLevel() {
            // semantics.md: snapshot isolation forbids the long fork (its two anti-dependencies are
            // not adjacent), and so does every stronger level.
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                AnomalyCycle cycle = certain(ClassicHistories.longFork(), level);
                assertThat(cycle.anomaly()).isEqualTo("G-nonadjacent");
                assertThat(cycle.familiarName()).contains("long fork");
                assertThat(cycle.transactions()).containsExactly("T1", "T3", "T2", "T4");
                assertThat(types(cycle)).containsExactly("wr x", "rw y", "wr y", "rw x");
            }
        }

        @Test
        void aWriteCycleIsAG0OfTwoInTheCaseThatOrdersTheWritesCrosswise() {
            Explanation.Cycles cycles = cycles(ClassicHistories.writeCycle(), SER);
            assertThat(cycles.longest()).isEqualTo(2);
            assertThat(cycles.cases()).anySatisfy(c -> {
                assertThat(c.cycle().anomaly()).isEqualTo("G0");
                assertThat(c.cycle().length()).isEqualTo(2);
                assertThat(types(c.cycle())).containsExactly("ww x", "ww y");
                assertThat(c.assuming()).extracting(Assumption::text).containsExactlyInAnyOrder(
                        "T1's x = 1 was installed before T2's x = 2", "T2's y = 2 was installed before T1's y = 1");
            });
        }

        @Test
        void phantomWriteSkewIsAG2OfTwoThroughTheRowsNeitherReturned() {
            AnomalyCycle cycle = certain(ClassicHistories.phantomWriteSkew(), SER);
            assertThat(cycle.anomaly()).isEqualTo("G2");
            assertThat(cycle.familiarName()).contains("phantom write skew");
            assertThat(types(cycle)).containsExactly("predicate-rw bookings/b", "predicate-rw bookings/a");
            assertThat(cycle.edges().get(0).reason()).startsWith(
                    "T1's read of bookings where room = 1 did not return bookings/b: it saw the initial version, in which"
                            + " bookings/b did not exist; T2 installed a later version");
            assertThat(EXPLAINER.explain(ClassicHistories.phantomWriteSkew(), SI)).isInstanceOf(Explanation.Unexplained.class);
        }

        @Test
        void returnedRowsAreItemReads() {
            HistoryBuilder b = History.builder().initialValue("d/1", Map.of("on", true)).initialValue("d/2", Map.of("on", true))
                    .initialStateComplete(true);
            b.transaction("T1").predicate("d", "on = TRUE", Map.of("d/1", Map.of("on", true), "d/2", Map.of("on", true)))
                    .write("d/1", Map.of("on", false));
            b.transaction("T2").predicate("d", "on = TRUE", Map.of("d/1", Map.of("on", true), "d/2", Map.of("on", true)))
                    .write("d/2", Map.of("on", false));
            AnomalyCycle cycle = certain(b.build(), SER);
            assertThat(cycle.anomaly()).isEqualTo("G2-item");
            assertThat(cycle.familiarName()).contains("write skew");
            assertThat(cycle.edges().get(0).fromOperations().get(0).text())
                    .isEqualTo("read d where on = TRUE returned d/2 = {\"on\":true}");
        }

        @Test
        void sessionOrderGivesTheProcessVariant() {
            // T2 comes after T1 in its session yet did not see T1's write.
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").session("s").write("x", 1);
            b.transaction("T2").session("s").read("x", 0);
            AnomalyCycle cycle = certain(b.build(), SER);
            assertThat(cycle.anomaly()).isEqualTo("G-single-process");
            assertThat(cycle.edges().get(0).reason()).isEqualTo("T1 and T2 ran in session s, T1 first");
        }

        @Test
        void realTimeGivesTheRealtimeVariantAtStrictSerializabilityOnly() {
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").times(10, 20).write("x", 1);
            b.transaction("T2").times(30, 40).read("x", 0);
            History history = b.build();
            AnomalyCycle cycle = certain(history, SSER);
            assertThat(cycle.anomaly()).isEqualTo("G-single-realtime");
            assertThat(cycle.familiarName()).contains("stale read");
            assertThat(cycle.edges().get(0).reason()).isEqualTo("T1 ended (at 20) before T2 started (at 30)");
            assertThat(EXPLAINER.explain(history, SER)).isInstanceOf(Explanation.Unexplained.class);
        }

        @Test
        void equalValuesGiveOneCaseForEachWriteTheReadMayHaveSeen() {
            HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
            b.transaction("T1").write("x", 1).write("y", 1);
            b.transaction("T2").write("x", 1).write("y", 2);
            b.transaction("T3").read("x", 1).read("y", 0);
            Explanation.Cycles cycles = cycles(b.build(), SER);
            assertThat(cycles.cases()).hasSize(2);
            assertThat(cycles.longest()).isEqualTo(2);
            assertThat(cycles.cases()).allSatisfy(c -> {
                assertThat(c.assuming()).singleElement().isInstanceOf(Assumption.ReadFrom.class);
                assertThat(c.cycle().familiarName()).contains("read skew");
            });
            assertThat(cycles.cases()).extracting(c -> c.assuming().get(0).text()).containsExactly(
                    "T3 read x = 1 saw T1's write", "T3 read x = 1 did not see T1's write, so it saw T2's write");
        }

        @Test
        void versionsOrderedByWhatWasReadReadAsLemmas() {
            // T2 and T3 both read T1's x and wrote x: if either's version came before T1's, it would
            // have read a version installed after its own (G1c); otherwise each missed the other's.
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").write("x", 1);
            b.transaction("T2").read("x", 1).write("x", 2);
            b.transaction("T3").read("x", 1).write("x", 3);
            Explanation.Cycles cycles = cycles(b.build(), SER);
            assertThat(cycles.cases()).hasSize(3);
            assertThat(cycles.longest()).isEqualTo(2);
            assertThat(cycles.cases()).extracting(c -> c.cycle().anomaly()).containsExactly("G1c", "G1c", "G2-item");
            assertThat(cycles.cases().get(2).cycle().familiarName()).contains("lost update");
            assertThat(cycles.cases().get(2).assuming()).hasSize(2);
        }
    }

    @Nested
    @DisplayName("non-cycle anomalies")
    class Reads {

        @Test
        void abortedReadNamesTheReadAndTheAbortedWrite() {
            Explanation explanation = EXPLAINER.explain(ClassicHistories.abortedRead(), SER);
            assertThat(explanation).isInstanceOf(Explanation.Screened.class);
            ReadAnomaly anomaly = ((Explanation.Screened) explanation).anomaly();
            assertThat(anomaly.type()).isEqualTo(AnomalyType.G1A);
            assertThat(anomaly.read().transaction()).isEqualTo("T2");
            assertThat(anomaly.read().index()).isZero();
            assertThat(anomaly.read().text()).isEqualTo("read x = 5");
            assertThat(anomaly.related()).singleElement().satisfies(r -> {
                assertThat(r.operation().transaction()).isEqualTo("T1");
                assertThat(r.operation().text()).isEqualTo("write x = 5");
                assertThat(r.role()).isEqualTo("a write of a transaction that aborted");
            });
            assertThat(anomaly.explanation()).isEqualTo("T2 read x = 5, but only T1 wrote x = 5, and T1 aborted");
            assertThat(explanation.transactions()).extracting(TransactionSummary::id).containsExactly("T1", "T2");
        }

        @Test
        void intermediateReadNamesTheOverwrittenWrite() {
            ReadAnomaly anomaly = ((Explanation.Screened) EXPLAINER.explain(ClassicHistories.intermediateRead(), SER)).anomaly();
            assertThat(anomaly.type()).isEqualTo(AnomalyType.G1B);
            assertThat(anomaly.related()).singleElement().satisfies(r -> {
                assertThat(r.operation().index()).isZero();
                assertThat(r.role()).isEqualTo("a write its transaction overwrote before committing");
            });
        }

        @Test
        void internalInconsistencyNamesTheEarlierWrite() {
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").write("x", 1).read("x", 2);
            ReadAnomaly anomaly = ((Explanation.Screened) EXPLAINER.explain(b.build(), SER)).anomaly();
            assertThat(anomaly.type()).isEqualTo(AnomalyType.INTERNAL);
            assertThat(anomaly.read().index()).isEqualTo(1);
            assertThat(anomaly.related()).singleElement().satisfies(r -> {
                assertThat(r.operation().index()).isZero();
                assertThat(r.role()).isEqualTo("the transaction's own earlier write");
            });
        }

        @Test
        void thinAirHasNoWriteToBlame() {
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").read("x", 42);
            ReadAnomaly anomaly = ((Explanation.Screened) EXPLAINER.explain(b.build(), SER)).anomaly();
            assertThat(anomaly.type()).isEqualTo(AnomalyType.THIN_AIR);
            assertThat(anomaly.related()).isEmpty();
            assertThat(anomaly.explanation()).isEqualTo("T1 read x = 42, which no transaction wrote and is not x's initial value (0)");
        }
    }

    @Nested
    @DisplayName("involved transactions and bounds")
    class Bounds {

        /** Write skew between T2 and T3, with unrelated transactions around it. */
        private History writeSkewAmongOthers(int others) {
            HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
            for (int i = 0; i < others; i++) {
                b.transaction("U" + i).write("z" + i, i);
            }
            b.transaction("T2").read("x", 0).write("y", 1);
            b.transaction("T3").read("y", 0).write("x", 1);
            return b.build();
        }

        @Test
        void theNamedTransactionsSuffice() {
            Explanation explanation = EXPLAINER.explain(writeSkewAmongOthers(20), SER, List.of("T2", "T3"));
            assertThat(explanation).isInstanceOf(Explanation.Cycles.class);
            assertThat(((Explanation.Cycles) explanation).cases().get(0).cycle().transactions()).containsExactly("T2", "T3");
        }

        @Test
        void tooFewNamedTransactionsFallBackToTheWholeHistory() {
            Explanation explanation = EXPLAINER.explain(writeSkewAmongOthers(3), SER, List.of("T2"));
            assertThat(explanation).isInstanceOf(Explanation.Cycles.class);
            assertThat(((Explanation.Cycles) explanation).anomaly()).isEqualTo("G2-item");
        }

        @Test
        void tooManyTransactionsAreSaidSo() {
            Explanation explanation = EXPLAINER.explain(writeSkewAmongOthers(20), SER);
            assertThat(explanation).isInstanceOf(Explanation.Unexplained.class);
            assertThat(((Explanation.Unexplained) explanation).reason())
                    .isEqualTo("the history has 22 committed transactions; explanations are searched exhaustively among at most 10");
        }

        @Test
        void aReadFromATransactionLeftOutDerivesNothing() {
            // T3 read T1's x; without T1 among the nodes nothing says where T3's version stands.
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").write("x", 1);
            b.transaction("T2").read("x", 1).write("x", 2);
            b.transaction("T3").read("x", 1).write("x", 3);
            History history = b.build();
            ExhaustiveExplainer small = new ExhaustiveExplainer(2, 10_000, 8);
            Explanation explanation = small.explain(history, SER, List.of("T2", "T3"));
            assertThat(explanation).isInstanceOf(Explanation.Unexplained.class);
            assertThat(((Explanation.Unexplained) explanation).reason()).contains("no cycle proves it")
                    .endsWith("the whole history, 3 committed transactions, is too large to try (at most 2)");
        }

        @Test
        void aSatisfiedHistoryIsNotExplained() {
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("T1").read("x", 0).write("x", 1);
            b.transaction("T2").read("x", 1).write("x", 2);
            assertThat(EXPLAINER.explain(b.build(), SER)).isInstanceOf(Explanation.Unexplained.class);
        }

        @Test
        void boundsAreValidated() {
            assertThatThrownBy(() -> new ExhaustiveExplainer(31, 1, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("maxTransactions must be between 0 and 30: 31");
            assertThatThrownBy(() -> new ExhaustiveExplainer(5, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void aSearchPastItsBudgetSaysSo() {
            Explanation explanation = new ExhaustiveExplainer(10, 3, 8).explain(ClassicHistories.writeCycle(), SER);
            assertThat(explanation).isInstanceOf(Explanation.Unexplained.class);
            assertThat(((Explanation.Unexplained) explanation).reason()).contains("was abandoned after looking at 3 sets");
        }
    }

    @Test
    void cycleTypesFollowElle() {
        DependencyType ww = DependencyType.WRITE_WRITE;
        DependencyType wr = DependencyType.WRITE_READ;
        DependencyType rw = DependencyType.READ_WRITE;
        DependencyType prw = DependencyType.PREDICATE_READ_WRITE;
        assertThat(AnomalyCycle.typeOf(List.of(ww, ww))).isEqualTo(AnomalyType.G0);
        assertThat(AnomalyCycle.typeOf(List.of(ww, wr))).isEqualTo(AnomalyType.G1C);
        assertThat(AnomalyCycle.typeOf(List.of(ww, rw))).isEqualTo(AnomalyType.G_SINGLE);
        assertThat(AnomalyCycle.typeOf(List.of(wr, rw, wr, rw))).isEqualTo(AnomalyType.G_NONADJACENT);
        assertThat(AnomalyCycle.typeOf(List.of(rw, rw))).isEqualTo(AnomalyType.G2_ITEM);
        assertThat(AnomalyCycle.typeOf(List.of(rw, prw))).isEqualTo(AnomalyType.G2);
        assertThat(AnomalyCycle.typeOf(List.of(DependencyType.SESSION, DependencyType.REAL_TIME))).isEqualTo(AnomalyType.SESSION_REALTIME);
        assertThat(AnomalyType.G_NONADJACENT.isForbiddenAt(SI)).isTrue();
        assertThat(AnomalyType.G2_ITEM.isForbiddenAt(SI)).isFalse();
        assertThat(Optional.of(AnomalyType.G2.shortName())).contains("G2");
    }
}
