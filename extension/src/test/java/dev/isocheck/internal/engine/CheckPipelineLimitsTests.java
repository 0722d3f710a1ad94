package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.solve.SatChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("pipeline: whatever stops a search is an unknown verdict, never an exception")
class CheckPipelineLimitsTests {

    private static final IsolationLevel SER = IsolationLevel.SERIALIZABLE;

    /** Three parts that share no key and no session: A, B and C. */
    private static History threeParts() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0);
        b.transaction("A1").read("x", 0).write("x", 1);
        b.transaction("B1").read("y", 0).write("y", 1);
        b.transaction("C1").read("z", 0).write("z", 1);
        return b.build();
    }

    @Test
    void aHeapExhaustedInTheSearchIsUnknownNamingTheStage() {
        Checker exhausted = (history, level) -> {
            throw new OutOfMemoryError("Java heap space");
        };

        Verdict verdict = new CheckPipeline(exhausted).check(threeParts(), SER);

        assertThat(verdict).isInstanceOf(Verdict.Unknown.class);
        assertThat(((Verdict.Unknown) verdict).reason()).startsWith(
                "the check ran out of memory while searching for an order that explains the history (the maximum heap is ");
    }

    @Test
    void aPartThatExhaustsTheHeapIsUnknownAndEveryOtherPartEnds() {
        AtomicInteger ended = new AtomicInteger();
        Checker exhaustedOnB = (history, level) -> {
            if (history.transaction("B1").isPresent()) {
                throw new OutOfMemoryError("Java heap space");
            }
            Verdict verdict = new SatChecker().check(history, level);
            ended.incrementAndGet();
            return verdict;
        };

        Verdict verdict = new CheckPipeline(exhaustedOnB, null, 1).check(threeParts(), SER);

        assertThat(verdict).isInstanceOf(Verdict.Unknown.class);
        assertThat(((Verdict.Unknown) verdict).reason()).startsWith(
                "independent part 2 of 3 (1 committed transactions, the first B1): the check ran out of memory while");
        assertThat(ended).hasValue(2);
        // A stack overflow too.
        Checker deep = (history, level) -> {
            throw new StackOverflowError();
        };
        assertThat(((Verdict.Unknown) new CheckPipeline(deep, null, 1).check(threeParts(), SER)).reason())
                .startsWith("independent part 1 of 3 (1 committed transactions, the first A1): the check ran out of stack while")
                .endsWith("(java.lang.StackOverflowError; please report)");
        // The reference checker decides histories this small when the search cannot.
        assertThat(new CheckPipeline(deep, new ReferenceChecker(), 1).check(threeParts(), SER).isSatisfied()).isTrue();
    }

    @Test
    void thePartsCaveatsAreKeptWhenTheirWitnessesAreMerged() {
        Checker withCaveat = (history, level) -> {
            Verdict.Satisfied satisfied = (Verdict.Satisfied) new SatChecker().check(history, level);
            return new Verdict.Satisfied(level, satisfied.witness(), List.of("caveat of " + satisfied.witness().get(0)));
        };

        Verdict verdict = new CheckPipeline(withCaveat, null, 1).check(threeParts(), SER);

        assertThat(verdict.isSatisfied()).isTrue();
        assertThat(((Verdict.Satisfied) verdict).caveats()).containsExactly("caveat of A1", "caveat of B1", "caveat of C1");
    }

    @Test
    void theCaveatsOfTheHistoryComeBeforeThoseOfTheSearch() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("T1").read("x", 0);
        Checker withCaveat = (history, level) -> new Verdict.Satisfied(level, List.of("T1"), List.of("the search's"));

        Verdict verdict = new CheckPipeline(withCaveat).check(b.build(), IsolationLevel.STRICT_SERIALIZABLE);

        List<String> caveats = new ArrayList<>(((Verdict.Satisfied) verdict).caveats());
        assertThat(caveats).hasSize(2);
        assertThat(caveats.get(0)).startsWith("real-time order: no transaction has a start or end time");
        assertThat(caveats.get(1)).isEqualTo("the search's");
    }

    @Test
    void partsShareTheBudgetAndOneThatFitsOnlyAloneWaitsForTheOthers() {
        // Each part's search reserves 60 of a budget of 100 while it works.
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        Checker reserving = new Checker() {
            @Override
            public Verdict check(History history, IsolationLevel level) {
                throw new AssertionError("the pipeline passes its limits");
            }

            @Override
            public Verdict check(History history, IsolationLevel level, Limits limits) {
                try (Limits.Reservation r = limits.reserve(60, () -> "a part")) {
                    mostAtOnce.accumulateAndGet(holding.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    holding.decrementAndGet();
                }
                return new SatChecker().check(history, level);
            }
        };

        Verdict verdict = new CheckPipeline(reserving, null, 1).check(threeParts(), SER,
                Limits.startingNow(java.time.Duration.ofMinutes(1), 100, "as set"));

        assertThat(verdict.isSatisfied()).isTrue();
        assertThat(mostAtOnce).hasValue(1);
        // One that fits not even alone is unknown, saying so.
        Checker greedy = new Checker() {
            @Override
            public Verdict check(History history, IsolationLevel level) {
                throw new AssertionError("the pipeline passes its limits");
            }

            @Override
            public Verdict check(History history, IsolationLevel level, Limits limits) {
                limits.reserve(200, () -> "everything").close();
                return new SatChecker().check(history, level);
            }
        };
        Verdict unknown = new CheckPipeline(greedy).check(threeParts(), SER, Limits.startingNow(null, 100, "as set"));
        assertThat(((Verdict.Unknown) unknown).reason())
                .isEqualTo("everything would need about 200 bytes, more than the memory budget of 100 bytes (as set) allows,"
                        + " so it was not built");
    }
}
