package dev.isocheck.examples.rota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.Transactions;
import dev.isocheck.examples.Unrecorded;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The rota's tests' scenario: Alice and Bob are on call for shift 1 and both ask to go off at the
 * same moment, each request on a thread of its own. Nothing in the application holds them: an
 * {@code @InterleavingTest} runs them in the orders that break them, creating the scenario in its
 * body so that every schedule starts from a fresh rota.
 */
final class AliceAndBobGoOffCall {

    private static final int SHIFT = 1;

    private final Rota unrecorded;
    private final Rota rota;

    /** A fresh rota; the one under test runs at {@code isolation} on recorded connections. */
    AliceAndBobGoOffCall(IsolationSetting isolation) throws SQLException {
        this(isolation, Isocheck.record(EmbeddedPostgres.dataSource()));
    }

    /** A fresh rota; the one under test runs at {@code isolation} on connections of {@code recorded}. */
    AliceAndBobGoOffCall(IsolationSetting isolation, DataSource recorded) throws SQLException {
        DataSource setUp = Unrecorded.postgres();
        Rota.createSchema(setUp);
        unrecorded = new Rota(new Transactions(setUp, isolation), Pager.NONE);
        unrecorded.addOnCall("alice", SHIFT);
        unrecorded.addOnCall("bob", SHIFT);
        rota = new Rota(new Transactions(recorded, isolation), Pager.NONE);
    }

    /** Both requests at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> goOffCall() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("alice", () -> {
                    rota.goOffCall("alice", SHIFT);
                    return null;
                }),
                new Concurrently.Task("bob", () -> {
                    rota.goOffCall("bob", SHIFT);
                    return null;
                })));
    }

    /**
     * Asserts what holds in every order, at every level: a request refused was the last doctor's,
     * and whoever was not let off is still on call (nobody, when both went off: the rule broken,
     * which only overlapping requests can do).
     *
     * @param outcomes what {@link #goOffCall()} returned
     * @return how many doctors went off call
     */
    long assertTheRotaAddsUp(List<Throwable> outcomes) throws SQLException {
        long off = outcomes.stream().filter(Objects::isNull).count();
        assertThat(outcomes).filteredOn(Objects::nonNull).allSatisfy(refused -> assertThat(refused).isInstanceOf(LastDoctorOnCall.class));
        assertThat(onCall()).as("who is on call").hasSize(2 - (int) off);
        return off;
    }

    /** Who is on call now, read without recording. */
    List<String> onCall() throws SQLException {
        return unrecorded.onCall(SHIFT);
    }
}
