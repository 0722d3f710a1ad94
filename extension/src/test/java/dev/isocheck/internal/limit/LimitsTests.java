package dev.isocheck.internal.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("limits: a deadline and a memory budget")
class LimitsTests {

    @Test
    void aReservationAboveTheWholeBudgetFailsAtOnceSayingWhatAndHowMuch() {
        Limits limits = Limits.startingNow(Duration.ofMinutes(1), 1L << 30, "as set");

        assertThatThrownBy(() -> limits.reserve(3L << 30, () -> "the SAT encoding (12 edges)"))
                .isInstanceOf(LimitExceededException.class)
                .hasMessage("the SAT encoding (12 edges) would need about 3.0 GiB, more than the memory budget of 1.0 GiB"
                        + " (as set) allows, so it was not built")
                .extracting(e -> ((LimitExceededException) e).kind()).isEqualTo(LimitExceededException.Kind.MEMORY);
    }

    @Test
    void reservationsThatFitOnlyOneAtATimeWaitForEachOther() throws Exception {
        Limits limits = Limits.startingNow(Duration.ofMinutes(1), 100, "as set");
        Limits.Reservation first = limits.reserve(60, () -> "first");
        CompletableFuture<Limits.Reservation> second = CompletableFuture.supplyAsync(() -> limits.reserve(60, () -> "second"));

        Thread.sleep(100);
        assertThat(second).isNotDone();
        first.close();
        second.get(10, TimeUnit.SECONDS).close();
        // Both released: the whole budget is there again.
        limits.reserve(100, () -> "all").close();
    }

    @Test
    void theTimeLimitNamesItselfAndTheStage() throws InterruptedException {
        Limits limits = Limits.startingNow(Duration.ofMillis(1), 100, "as set");
        Thread.sleep(5);

        assertThatThrownBy(() -> limits.enter("pruning"))
                .isInstanceOf(LimitExceededException.class)
                .hasMessage("the time limit of 1ms was exceeded while pruning")
                .extracting(e -> ((LimitExceededException) e).kind()).isEqualTo(LimitExceededException.Kind.TIME);
        assertThatThrownBy(limits::remainingNanos).hasMessage("the time limit of 1ms was exceeded while pruning");
        // Waiting for memory ends at the deadline too.
        Limits busy = Limits.startingNow(Duration.ofMillis(200), 100, "as set");
        busy.reserve(100, () -> "all");
        assertThatThrownBy(() -> busy.reserve(1, () -> "more")).hasMessageStartingWith("the time limit of 200ms was exceeded");
    }

    @Test
    void aFirstPartEndsEarlierAndSharesTheMemoryBudget() throws Exception {
        Limits whole = Limits.startingNow(Duration.ofSeconds(40), 100, "as set");
        Limits part = whole.firstPart(4);

        assertThat(part.remainingNanos()).isLessThanOrEqualTo(Duration.ofSeconds(10).toNanos())
                .isGreaterThan(Duration.ofSeconds(9).toNanos());
        assertThat(part.memoryBudget()).isEqualTo(100);
        // What the part holds, the whole cannot reserve beside it, and the other way round.
        Limits.Reservation held = part.reserve(60, () -> "the attempt's encoding");
        CompletableFuture<Limits.Reservation> waiting = CompletableFuture.supplyAsync(() -> whole.reserve(60, () -> "the check's"));
        Thread.sleep(100);
        assertThat(waiting).isNotDone();
        held.close();
        waiting.get(10, TimeUnit.SECONDS).close();
        // A part of a part shares the same budget: it waits for it until its own, earlier, deadline.
        Limits brief = Limits.startingNow(Duration.ofMillis(400), 100, "as set");
        try (Limits.Reservation all = brief.reserve(100, () -> "all")) {
            long started = System.nanoTime();
            assertThatThrownBy(() -> brief.firstPart(2).firstPart(2).reserve(1, () -> "more"))
                    .hasMessageStartingWith("the time limit of");
            assertThat(System.nanoTime() - started).isLessThan(Duration.ofMillis(350).toNanos());
        }
    }

    @Test
    void untilCutsTheTimeShortAndSharesTheMemoryBudget() {
        Limits whole = Limits.startingNow(Duration.ofSeconds(40), 100, "as set");
        Limits cut = whole.until(System.nanoTime() + Duration.ofSeconds(2).toNanos());
        assertThat(cut.remainingNanos()).isLessThanOrEqualTo(Duration.ofSeconds(2).toNanos())
                .isGreaterThan(Duration.ofSeconds(1).toNanos());
        assertThat(cut.memoryBudget()).isEqualTo(100);
        try (Limits.Reservation held = cut.reserve(60, () -> "a step's encoding")) {
            assertThatThrownBy(() -> whole.until(System.nanoTime() + 1_000_000).reserve(60, () -> "another"))
                    .hasMessageStartingWith("the time limit of");
        }
        // A later deadline leaves the limits as they are; no limit gets one.
        assertThat(whole.until(System.nanoTime() + Duration.ofSeconds(100).toNanos())).isSameAs(whole);
        assertThat(Limits.none().until(System.nanoTime() + Duration.ofSeconds(3).toNanos()).remainingNanos())
                .isLessThanOrEqualTo(Duration.ofSeconds(3).toNanos()).isGreaterThan(Duration.ofSeconds(2).toNanos());
        // A deadline already passed: the time is up at once.
        assertThatThrownBy(() -> whole.until(System.nanoTime() - 1).checkTime()).hasMessageStartingWith("the time limit of");
    }

    @Test
    void aFirstPartOfNoLimitIsNoLimit() {
        assertThat(Limits.none().firstPart(4)).isSameAs(Limits.none());
        assertThatThrownBy(() -> Limits.none().firstPart(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void noneLimitsNothing() {
        Limits none = Limits.none();
        none.enter("anything");
        assertThat(none.remainingNanos()).isEqualTo(Long.MAX_VALUE);
        none.reserve(Long.MAX_VALUE - 1, () -> "a lot").close();
    }

    @Test
    void durationsAndSizesAreWrittenAsTheCommandLineTakesThem() {
        assertThat(Limits.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Limits.format(Duration.ofMinutes(10))).isEqualTo("10m");
        assertThat(Limits.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Limits.format(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(Limits.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Limits.bytes(64L << 20)).isEqualTo("64 MiB");
        assertThat(Limits.bytes(3L << 29)).isEqualTo("1.5 GiB");
        assertThat(Limits.bytes(2048)).isEqualTo("2 KiB");
        assertThat(Limits.bytes(100)).isEqualTo("100 bytes");
    }
}
