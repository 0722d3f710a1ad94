package dev.isocheck.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.isocheck.bench.Workloads.Kind;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.solve.SatChecker;
import dev.isocheck.internal.solve.WitnessReplay;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WorkloadsTests {

    private static final int SMALL = 200;

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theClaimedSerialOrderReplaysAndRespectsRealTime(Kind kind) {
        for (Timing timing : Timing.values()) {
            BenchHistory generated = Workloads.generate(kind, SMALL, 7, InjectedAnomaly.NONE, timing);
            History h = generated.history();
            assertThat(generated.timing()).isEqualTo(timing);
            assertThat(h.size()).isEqualTo(SMALL);
            assertThat(h.committedCount()).isEqualTo(SMALL);
            assertThat(generated.serialOrder()).hasSize(SMALL);
            assertThat(new WitnessReplay(h).failure(generated.serialOrder(), true)).as("at %s", timing).isEmpty();
            assertThat(new WitnessReplay(h).snapshotFailure(generated.serialOrder())).isEmpty();
            assertThat(h.transactions()).allSatisfy(t -> {
                assertThat(t.size()).as("%s has operations", t.id()).isPositive();
                assertThat(t.start().isPresent()).isEqualTo(timing != Timing.NONE);
            });
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                assertThat(generated.satisfies(level)).isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void serialTimesPutOneTransactionAtATime(Kind kind) {
        BenchHistory generated = Workloads.generate(kind, SMALL, 7, InjectedAnomaly.NONE, Timing.SERIAL);
        long previousEnd = Long.MIN_VALUE;
        for (String id : generated.serialOrder()) {
            Transaction t = generated.history().transaction(id).orElseThrow();
            assertThat(t.startTime()).isGreaterThan(previousEnd);
            previousEnd = t.endTime();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void overlappingTimesHideTheSerialOrder(Kind kind) {
        BenchHistory generated = Workloads.generate(kind, 1000, 7);
        assertThat(generated.timing()).isEqualTo(Timing.OVERLAPPING);
        History h = generated.history();
        List<Transaction> inOrder = generated.serialOrder().stream().map(id -> h.transaction(id).orElseThrow()).toList();
        int overlapping = 0;
        int endsOutOfOrder = 0;
        for (int i = 1; i < inOrder.size(); i++) {
            overlapping += inOrder.get(i).startTime() < inOrder.get(i - 1).endTime() ? 1 : 0;
            endsOutOfOrder += inOrder.get(i).endTime() < inOrder.get(i - 1).endTime() ? 1 : 0;
        }
        assertThat(overlapping).isGreaterThan(900);
        assertThat(endsOutOfOrder).isGreaterThan(100);
        // Each session's transactions follow one another in time.
        for (Session s : h.sessions()) {
            for (int i = 1; i < s.size(); i++) {
                assertThat(h.transaction(s.transaction(i)).startTime()).isGreaterThan(h.transaction(s.transaction(i - 1)).endTime());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void sessionsTakeEqualShares(Kind kind) {
        History h = Workloads.generate(kind, 1000, 3).history();
        int expected = switch (kind) {
            case BLINDW_RH, BLINDW_RW, BLINDW_WH, BLINDW_PRED -> Workloads.BLINDW_SESSIONS;
            case YCSB_DUP -> Workloads.YCSB_SESSIONS;
            case TPCC, TWITTER -> Workloads.APP_SESSIONS;
            case HOT_KEYS -> Workloads.HOT_SESSIONS;
        };
        assertThat(h.sessions()).hasSize(expected);
        IntSummaryStatistics sizes = h.sessions().stream().mapToInt(Session::size).summaryStatistics();
        assertThat(sizes.getMax() - sizes.getMin()).isLessThanOrEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theSameSeedGivesTheSameHistory(Kind kind) {
        assertThat(render(Workloads.generate(kind, SMALL, 11).history()))
                .isEqualTo(render(Workloads.generate(kind, SMALL, 11).history()))
                .isNotEqualTo(render(Workloads.generate(kind, SMALL, 12).history()));
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"YCSB_DUP", "BLINDW_PRED", "HOT_KEYS"}, mode = EnumSource.Mode.EXCLUDE)
    void valuesAreUniqueWhereClaimed(Kind kind) {
        BenchHistory generated = Workloads.generate(kind, 1000, 5);
        assertThat(generated.uniqueValues()).isTrue();
        History h = generated.history();
        Map<Integer, Set<Integer>> written = new HashMap<>();
        for (Transaction t : h.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE && t.value(i) != ValueTable.ABSENT) {
                    int key = t.key(i);
                    Set<Integer> values = written.computeIfAbsent(key, k -> new HashSet<>());
                    assertThat(values.add(t.value(i))).as("%s writes %s again", t.id(), t.describe(i)).isTrue();
                    if (h.initialState().isKnown(key)) {
                        assertThat(t.value(i)).isNotEqualTo(h.initialState().valueOf(key));
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"BLINDW_RH", "BLINDW_RW", "BLINDW_WH"})
    void blindWTransactionsReadOrWriteEightDistinctKeys(Kind kind) {
        History h = Workloads.generate(kind, 2000, 1).history();
        int readOnly = 0;
        for (Transaction t : h.transactions()) {
            assertThat(t.size()).isEqualTo(Workloads.BLINDW_OPS);
            assertThat(IntStream.range(0, t.size()).map(t::key).distinct().count()).isEqualTo(Workloads.BLINDW_OPS);
            Set<OpKind> kinds = new HashSet<>();
            IntStream.range(0, t.size()).forEach(i -> kinds.add(t.kind(i)));
            assertThat(kinds).hasSize(1);
            readOnly += kinds.contains(OpKind.READ) ? 1 : 0;
        }
        int percent = switch (kind) {
            case BLINDW_RH -> 90;
            case BLINDW_RW -> 50;
            default -> 10;
        };
        assertThat(readOnly * 100.0 / h.size()).isCloseTo(percent, offset(4.0));
        assertThat(h.keys().size()).isEqualTo(Workloads.BLINDW_KEYS);
        assertThat(h.initialState().listedCount()).isEqualTo(Workloads.BLINDW_KEYS);
    }

    @Test
    void blindWPredReadsByRangeOrWritesEightRows() {
        History h = Workloads.generate(Kind.BLINDW_PRED, 2000, 1).history();
        int reading = 0;
        int returned = 0;
        for (Transaction t : h.transactions()) {
            Set<OpKind> kinds = new HashSet<>();
            IntStream.range(0, t.size()).forEach(i -> kinds.add(t.kind(i)));
            assertThat(kinds).hasSize(1);
            if (kinds.contains(OpKind.PREDICATE)) {
                reading++;
                assertThat(t.size()).isEqualTo(Workloads.PRED_READS);
                for (int i = 0; i < t.size(); i++) {
                    assertThat(t.predicate(i).where()).matches("v[12] BETWEEN \\d+ AND \\d+");
                    returned += t.predicate(i).rowCount();
                }
            } else {
                assertThat(kinds).containsExactly(OpKind.WRITE);
                assertThat(IntStream.range(0, t.size()).map(t::key).distinct().count()).isEqualTo(Workloads.BLINDW_OPS);
            }
        }
        assertThat(reading * 100.0 / h.size()).isCloseTo(50, offset(4.0));
        // A range of 1,000 of 1,000,000 values over 10,000 rows: about ten rows each.
        assertThat(returned / (double) (reading * Workloads.PRED_READS)).isBetween(7.0, 13.0);
        assertThat(h.initialState().listedCount()).isEqualTo(Workloads.BLINDW_KEYS);
    }

    @Test
    void hotKeysRewriteFiftyKeysWithFourValues() {
        BenchHistory generated = Workloads.generate(Kind.HOT_KEYS, 5000, 1);
        assertThat(generated.uniqueValues()).isFalse();
        History h = generated.history();
        Set<String> keys = new HashSet<>();
        Set<Long> values = new HashSet<>();
        int reads = 0;
        int ops = 0;
        for (Transaction t : h.transactions()) {
            assertThat(t.size()).isBetween(1, Workloads.HOT_OPS);
            for (int i = 0; i < t.size(); i++) {
                ops++;
                keys.add(h.keys().name(t.key(i)));
                if (t.kind(i) == OpKind.READ) {
                    reads++;
                } else {
                    values.add((Long) h.values().get(t.value(i)).toJava());
                }
            }
        }
        assertThat(keys).hasSize(Workloads.HOT_KEYS);
        assertThat(values).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
        assertThat(reads * 100.0 / ops).isCloseTo(50, offset(3.0));
    }

    @Test
    void ycsbHasHalfReadsAndDuplicateValuesOnHalfTheKeys() {
        BenchHistory generated = Workloads.generate(Kind.YCSB_DUP, 2000, 1);
        assertThat(generated.uniqueValues()).isFalse();
        History h = generated.history();
        int reads = 0;
        int ops = 0;
        boolean duplicated = false;
        Map<Integer, Set<Integer>> written = new HashMap<>();
        for (Transaction t : h.transactions()) {
            assertThat(t.size()).isEqualTo(Workloads.YCSB_OPS);
            for (int i = 0; i < t.size(); i++) {
                ops++;
                int key = Integer.parseInt(h.keys().name(t.key(i)).substring(1));
                assertThat(key).isBetween(0, Workloads.YCSB_KEYS - 1);
                if (t.kind(i) == OpKind.READ) {
                    reads++;
                    continue;
                }
                long value = (Long) h.values().get(t.value(i)).toJava();
                if (key < Workloads.YCSB_DUPLICATE_KEYS) {
                    assertThat(value).isBetween(0L, Workloads.YCSB_DUPLICATE_DOMAIN - 1L);
                    duplicated |= !written.computeIfAbsent(key, k -> new HashSet<>()).add(t.value(i));
                } else {
                    assertThat(value).isGreaterThan(0L);
                    assertThat(written.computeIfAbsent(key, k -> new HashSet<>()).add(t.value(i))).isTrue();
                }
            }
        }
        assertThat(reads * 100.0 / ops).isCloseTo(50, offset(3.0));
        assertThat(duplicated).isTrue();
    }

    @Test
    void tpccHasItsTransactionTypesAndHotRows() {
        History h = Workloads.generate(Kind.TPCC, 2000, 1).history();
        Map<String, Integer> writesPerKey = new HashMap<>();
        int newOrders = 0;
        for (Transaction t : h.transactions()) {
            boolean inserts = false;
            for (int i = 0; i < t.size(); i++) {
                String key = h.keys().name(t.key(i));
                if (t.kind(i) == OpKind.WRITE) {
                    writesPerKey.merge(key, 1, Integer::sum);
                    inserts |= key.startsWith("no") && t.value(i) != ValueTable.ABSENT;
                }
            }
            newOrders += inserts ? 1 : 0;
        }
        assertThat(newOrders * 100.0 / h.size()).isCloseTo(45, offset(4.0));
        // Payments update a warehouse row each: the hottest keys by far.
        assertThat(writesPerKey.get("w1") + writesPerKey.get("w2")).isGreaterThan(h.size() * 40 / 100);
        assertThat(writesPerKey.keySet()).anyMatch(k -> k.startsWith("ol")).anyMatch(k -> k.startsWith("s"))
                .anyMatch(k -> k.startsWith("c")).anyMatch(k -> k.startsWith("h"));
        assertThat(h.transactions()).anySatisfy(t -> assertThat(t.toString()).contains(", null)"));
    }

    @Test
    void twitterPostsFollowsAndReadsTimelines() {
        History h = Workloads.generate(Kind.TWITTER, 2000, 1).history();
        List<String> shapes = new ArrayList<>();
        for (Transaction t : h.transactions()) {
            String first = h.keys().name(t.key(0));
            shapes.add(t.kind(0) == OpKind.WRITE ? "post" : first.startsWith("f") && t.size() == 2 && t.kind(1) == OpKind.WRITE
                    ? "follow" : first.startsWith("f") ? "timeline" : "own");
        }
        assertThat(shapes.stream().filter("post"::equals).count() * 100.0 / h.size()).isCloseTo(30, offset(4.0));
        assertThat(shapes.stream().filter("follow"::equals).count() * 100.0 / h.size()).isCloseTo(20, offset(4.0));
        // Timelines read tweets of others once they exist.
        assertThat(h.transactions()).anySatisfy(t -> assertThat(h.keys().name(t.key(0))).startsWith("f")
                .satisfies(k -> assertThat(t.toString()).contains("r(tw")));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anInjectedAnomalyAddsTwoConcurrentTransactionsToTheSameCleanHistory(Kind kind) {
        for (Timing timing : List.of(Timing.OVERLAPPING, Timing.SERIAL)) {
            History clean = Workloads.generate(kind, SMALL, 9, InjectedAnomaly.NONE, timing).history();
            for (InjectedAnomaly anomaly : List.of(InjectedAnomaly.LOST_UPDATE, InjectedAnomaly.WRITE_SKEW, InjectedAnomaly.READ_SKEW)) {
                BenchHistory injected = Workloads.generate(kind, SMALL, 9, anomaly, timing);
                History h = injected.history();
                assertThat(h.size()).isEqualTo(SMALL + 2);
                assertThat(injected.serialOrder()).isEmpty();
                assertThat(injected.anomaly()).isEqualTo(anomaly);
                // Serial times do not move; overlapping ones around the anomaly's sessions do.
                boolean times = timing == Timing.SERIAL;
                List<String> withoutAnomaly = render(h, times).stream().filter(line -> !line.contains("anomaly")).toList();
                assertThat(withoutAnomaly).isEqualTo(render(clean, times));
                Transaction a = h.transaction("anomaly-a").orElseThrow();
                Transaction b = h.transaction("anomaly-b").orElseThrow();
                assertThat(a.session()).isNotEqualTo(b.session());
                assertThat(a.startTime()).isLessThan(b.endTime());
                assertThat(b.startTime()).isLessThan(a.endTime());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theSatEngineFindsEachInjectedAnomaly(Kind kind) {
        SatChecker engine = new SatChecker();
        for (InjectedAnomaly anomaly : List.of(InjectedAnomaly.LOST_UPDATE, InjectedAnomaly.WRITE_SKEW, InjectedAnomaly.READ_SKEW)) {
            History h = Workloads.generate(kind, 300, 13, anomaly).history();
            assertThat(engine.check(h, IsolationLevel.SERIALIZABLE)).as("%s with %s", kind, anomaly)
                    .isInstanceOf(Verdict.Violated.class);
        }
        History skew = Workloads.generate(kind, 300, 13, InjectedAnomaly.WRITE_SKEW).history();
        assertThat(engine.check(skew, IsolationLevel.SNAPSHOT_ISOLATION)).as("%s with write skew at SI", kind)
                .isInstanceOf(Verdict.Satisfied.class);
    }

    /**
     * The pipeline at the weak levels says of each injected anomaly what {@link InjectedAnomaly#violates} says.
     * Not hot keys: with four values on fifty keys, the weak levels' search over which write each
     * read saw goes past its budget already at 300 transactions (Unknown, never a false alarm).
     */
    @ParameterizedTest
    @EnumSource(value = Kind.class, names = "HOT_KEYS", mode = EnumSource.Mode.EXCLUDE)
    void theSaturationAtTheWeakLevelsSeesWhatEachInjectedAnomalyBreaks(Kind kind) {
        dev.isocheck.internal.engine.CheckPipeline pipeline = new dev.isocheck.internal.engine.CheckPipeline();
        for (InjectedAnomaly anomaly : InjectedAnomaly.values()) {
            History h = Workloads.generate(kind, 300, 13, anomaly).history();
            for (IsolationLevel level : List.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL)) {
                assertThat(pipeline.check(h, level).isSatisfied()).as("%s with %s at %s", kind, anomaly, level)
                        .isEqualTo(!anomaly.violates(level));
            }
        }
    }

    @Test
    void anomaliesViolateTheLevelsTheyShould() {
        assertThat(InjectedAnomaly.READ_SKEW.violates(IsolationLevel.READ_ATOMIC)).isTrue();
        assertThat(InjectedAnomaly.READ_SKEW.violates(IsolationLevel.READ_COMMITTED)).isFalse();
        assertThat(InjectedAnomaly.LOST_UPDATE.violates(IsolationLevel.CAUSAL)).isFalse();
        assertThat(InjectedAnomaly.WRITE_SKEW.violates(IsolationLevel.CAUSAL)).isFalse();
        assertThat(InjectedAnomaly.LOST_UPDATE.violates(IsolationLevel.SNAPSHOT_ISOLATION)).isTrue();
        assertThat(InjectedAnomaly.READ_SKEW.violates(IsolationLevel.SNAPSHOT_ISOLATION)).isTrue();
        assertThat(InjectedAnomaly.WRITE_SKEW.violates(IsolationLevel.SNAPSHOT_ISOLATION)).isFalse();
        assertThat(InjectedAnomaly.WRITE_SKEW.violates(IsolationLevel.SERIALIZABLE)).isTrue();
        assertThat(InjectedAnomaly.NONE.violates(IsolationLevel.STRICT_SERIALIZABLE)).isFalse();
        assertThat(InjectedAnomaly.fromName("Write_Skew")).isEqualTo(InjectedAnomaly.WRITE_SKEW);
        assertThat(Kind.fromName("BLINDW-RW")).isEqualTo(Kind.BLINDW_RW);
    }

    private static List<String> render(History h) {
        return render(h, true);
    }

    /** One line per transaction: session, times if asked, and operations, in history order. */
    private static List<String> render(History h, boolean times) {
        return h.transactions().stream()
                .map(t -> h.sessionOf(t).name() + (times ? " " + t.startTime() + ".." + t.endTime() : "") + " " + t)
                .toList();
    }
}
