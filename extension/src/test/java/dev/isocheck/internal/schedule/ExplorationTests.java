package dev.isocheck.internal.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The plans of an exploration, the orders it enumerates and the strategies' choices, without a database. */
class ExplorationTests {

    @Test
    void ordersAreCountedAsMultinomialsAndListedMostInterleavedFirst() {
        assertThat(Orders.count(Map.of("A", 3, "B", 3), 1000)).isEqualTo(20);
        assertThat(Orders.count(Map.of("A", 5, "B", 5), 1000)).isEqualTo(252);
        assertThat(Orders.count(Map.of("A", 3, "B", 3, "C", 3), 2000)).isEqualTo(1680);
        assertThat(Orders.count(Map.of("A", 40, "B", 40), 1000)).isEqualTo(Long.MAX_VALUE);
        assertThat(Orders.count(Map.of("A", 400, "B", 400, "C", 400), Long.MAX_VALUE - 1)).isEqualTo(Long.MAX_VALUE);

        List<String> all = Orders.all(linked("A", 2, "B", 2));
        assertThat(all).hasSize(6).doesNotHaveDuplicates().startsWith("ABAB", "BABA").endsWith("BBAA");
        for (String order : all) {
            assertThat(order.chars().filter(c -> c == 'A').count()).isEqualTo(2);
        }
    }

    @Test
    void everyOrderOfAThreeThreadRunIsListedOnce() {
        List<String> all = Orders.all(linked("A", 2, "B", 1, "C", 2));
        assertThat(all).hasSize(30).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).hasSize((int) Orders.count(linked("A", 2, "B", 1, "C", 2), 100));
    }

    @Test
    void lettersNameTwentySixThreadsByLetterAndTheRestByNumber() {
        assertThat(Letters.of(0)).isEqualTo("A");
        assertThat(Letters.of(25)).isEqualTo("Z");
        assertThat(Letters.of(26)).isEqualTo("T27");
        assertThat(Letters.indexOf("T27")).isEqualTo(26);
        assertThat(Letters.join(List.of("A", "B", "A"))).isEqualTo("ABA");
        assertThat(Letters.join(List.of("A", "T27", "A"))).isEqualTo("A T27 A");
        assertThat(Letters.split("A T27 A")).containsExactly("A", "T27", "A");
        assertThat(Letters.split("ABBA")).containsExactly("A", "B", "B", "A");
        assertThat(Letters.valid("ABBA")).isTrue();
        assertThat(Letters.valid("AB-A")).isFalse();
        assertThat(Letters.valid("")).isFalse();
    }

    @Test
    void roundRobinTakesTheNextHeldThreadAfterTheOneBefore() {
        Strategy robin = new Strategy.RoundRobin("A");
        assertThat(robin.choose(List.of("A", "B", "C"), 0)).isEqualTo("A");
        assertThat(robin.choose(List.of("A", "B", "C"), 1)).isEqualTo("B");
        assertThat(robin.choose(List.of("A", "C"), 2)).isEqualTo("C");
        assertThat(robin.choose(List.of("A", "B", "C"), 3)).isEqualTo("A");
        assertThat(robin.choose(List.of("B"), 4)).isEqualTo("B");
    }

    @Test
    void aGivenOrderIsFollowedWhereItsThreadIsHeldAndTheFirstHeldGoesOtherwise() {
        Strategy order = new Strategy.Order("BBA");
        assertThat(order.choose(List.of("A", "B"), 0)).isEqualTo("B");
        assertThat(order.choose(List.of("A"), 1)).isEqualTo("A");
        assertThat(order.choose(List.of("A", "B"), 2)).isEqualTo("A");
        assertThat(order.choose(List.of("A", "B"), 3)).isEqualTo("A");
    }

    @Test
    void aRandomWalkIsReproducibleFromItsSeed() {
        List<String> first = walk(new Strategy.RandomWalk(7));
        assertThat(walk(new Strategy.RandomWalk(7))).isEqualTo(first);
        assertThat(IntStream.range(0, 20).mapToObj(seed -> walk(new Strategy.RandomWalk(seed))).distinct().count()).isGreaterThan(10);
    }

    @Test
    void anExplorationGoesRoundRobinThenThroughEveryOrderWhenTheyFitTheBudget() {
        Exploration exploration = new Exploration(10, 0, "", false);
        Exploration.Plan first = exploration.next().orElseThrow();
        assertThat(first.kind()).isEqualTo(Exploration.Kind.ROUND_ROBIN);
        assertThat(first.name()).isEqualTo("schedule 1 of 10: round robin");
        exploration.ran(first, trace("ABAB"));
        exploration.judged(first, trace("ABAB"), false, false);
        List<String> planned = new ArrayList<>();
        Optional<Exploration.Plan> next;
        while ((next = exploration.next()).isPresent()) {
            Exploration.Plan plan = next.get();
            assertThat(plan.kind()).isEqualTo(Exploration.Kind.EVERY_ORDER);
            String order = ((Strategy.Order) plan.strategy()).letters();
            planned.add(order);
            exploration.ran(plan, trace(order));
            exploration.judged(plan, trace(order), false, false);
        }
        assertThat(exploration.over()).isTrue();
        // Six orders of 2 + 2 points; round robin ran ABAB already.
        assertThat(planned).containsExactly("BABA", "ABBA", "BAAB", "AABB", "BBAA");
        assertThat(exploration.distinctOrders()).isEqualTo(6);
    }

    @Test
    void whenTheOrdersDoNotFitThoseWithFewSwitchesComeFirstThenRandomWalksToTheBudget() {
        Exploration exploration = new Exploration(20, 100, "", false);
        List<Exploration.Plan> plans = new ArrayList<>();
        Optional<Exploration.Plan> next;
        while ((next = exploration.next()).isPresent()) {
            Exploration.Plan plan = next.get();
            plans.add(plan);
            Trace trace = trace(plan.strategy() instanceof Strategy.Order order ? order.letters() : "ABABABABABABAB");
            exploration.ran(plan, trace);
            exploration.judged(plan, trace, false, false);
        }
        // 7 + 7 points: 3,432 orders; 14 with at most two switches (2 serial, 12 with one thread
        // run whole between two steps of the other), then random walks to the budget of 20.
        assertThat(plans).hasSize(20);
        assertThat(plans.get(0).kind()).isEqualTo(Exploration.Kind.ROUND_ROBIN);
        assertThat(plans.subList(1, 15)).extracting(Exploration.Plan::kind).containsOnly(Exploration.Kind.FEW_SWITCHES);
        assertThat(plans.subList(15, 20)).extracting(Exploration.Plan::kind).containsOnly(Exploration.Kind.RANDOM_WALK);
        assertThat(plans.get(1).name()).isEqualTo("schedule 2 of 20: order AAAAAABBBBBBBA (few switches)");
        assertThat(plans.get(15).name()).isEqualTo("schedule 16 of 20: random walk, seed 116");
        assertThat(plans.get(19).last()).isTrue();
        assertThat(exploration.orderCount()).isEqualTo(3432);
    }

    @Test
    void theOrdersWithFewSwitchesRunOneThreadWholeBetweenTwoStepsOfAnother() {
        assertThat(Orders.withSwitchesAtMost(linked("A", 2, "B", 2), 2)).containsExactly("ABBA", "BAAB", "AABB", "BBAA");
        // Three threads with two switches: each whole, in any order.
        assertThat(Orders.withSwitchesAtMost(linked("A", 2, "B", 1, "C", 1), 2)).hasSize(6).contains("AABC", "CBAA");
        assertThat(Orders.withSwitchesAtMost(linked("A", 40, "B", 40), 2)).hasSize(2 + 39 + 39);
    }

    @Test
    void aViolationIsReplayedTwiceAndEndsTheExploration() {
        Exploration exploration = new Exploration(20, 0, "", false);
        Exploration.Plan first = exploration.next().orElseThrow();
        exploration.ran(first, trace("ABABABABABABAB"));
        exploration.judged(first, trace("ABABABABABABAB"), true, false);
        Exploration.Plan replay = exploration.next().orElseThrow();
        assertThat(replay.kind()).isEqualTo(Exploration.Kind.REPLAY);
        assertThat(((Strategy.Order) replay.strategy()).letters()).isEqualTo("ABABABABABABAB");
        assertThat(replay.name()).isEqualTo("replay 1 of 2 of schedule 1 (ABABABABABABAB)");
        exploration.ran(replay, trace("ABABABABABABAB"));
        exploration.judged(replay, trace("ABABABABABABAB"), true, false);
        Exploration.Plan again = exploration.next().orElseThrow();
        assertThat(again.last()).isTrue();
        exploration.ran(again, trace("ABABABABABABBA"));
        exploration.judged(again, trace("ABABABABABABBA"), false, false);
        assertThat(exploration.next()).isEmpty();
        assertThat(exploration.reproduced()).isEqualTo(1);
        assertThat(exploration.replays()).isEqualTo(2);
    }

    @Test
    void anExpectedAnomalyEndsTheExplorationWithoutReplays() {
        Exploration exploration = new Exploration(20, 0, "", true);
        Exploration.Plan first = exploration.next().orElseThrow();
        exploration.ran(first, trace("ABAB"));
        exploration.judged(first, trace("ABAB"), true, true);
        assertThat(exploration.next()).isEmpty();
    }

    @Test
    void aGivenOrderRunsOnceAlone() {
        Exploration exploration = new Exploration(20, 0, "BBAA", false);
        Exploration.Plan only = exploration.next().orElseThrow();
        assertThat(only.kind()).isEqualTo(Exploration.Kind.GIVEN_ORDER);
        assertThat(only.last()).isTrue();
        exploration.ran(only, trace("BBAA"));
        exploration.judged(only, trace("BBAA"), true, false);
        assertThat(exploration.next()).isEmpty();
    }

    @Test
    void aRunOfOneThreadHasOneOrderAndEndsTheExploration() {
        Exploration exploration = new Exploration(20, 0, "", false);
        Exploration.Plan first = exploration.next().orElseThrow();
        exploration.ran(first, trace("AAAA"));
        exploration.judged(first, trace("AAAA"), false, false);
        assertThat(exploration.over()).isTrue();
        assertThat(exploration.next()).isEmpty();
        assertThat(exploration.orderCount()).isEqualTo(1);
    }

    @Test
    void aBudgetBelowOneIsRefused() {
        assertThatThrownBy(() -> new Exploration(0, 0, "", false)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> walk(Strategy strategy) {
        List<String> chosen = new ArrayList<>();
        for (int step = 0; step < 30; step++) {
            chosen.add(strategy.choose(List.of("A", "B", "C"), step));
        }
        return chosen;
    }

    private static Map<String, Integer> linked(Object... lettersAndCounts) {
        Map<String, Integer> map = new LinkedHashMap<>();
        for (int i = 0; i < lettersAndCounts.length; i += 2) {
            map.put((String) lettersAndCounts[i], (Integer) lettersAndCounts[i + 1]);
        }
        return map;
    }

    private static Trace trace(String order) {
        List<Step> steps = new ArrayList<>();
        Map<String, String> threads = new LinkedHashMap<>();
        for (int i = 0; i < order.length(); i++) {
            String letter = String.valueOf(order.charAt(i));
            threads.put(letter, "thread-" + letter);
            steps.add(new Step(i + 1, letter, "thread-" + letter, "SELECT 1", 0, Optional.empty(), Optional.empty(), Optional.empty()));
        }
        return new Trace(steps, threads, List.of(), Optional.empty(), Optional.empty());
    }
}
