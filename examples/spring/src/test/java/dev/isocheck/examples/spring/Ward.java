package dev.isocheck.examples.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The tests' scenarios and their rows, set up and read back on connections of their own, not
 * recorded: the check is about the requests.
 */
final class Ward {

    /** The supply two nurses take from at once. */
    static final String GLOVES = "gloves";

    /** The shift Alice and Bob are on call for. */
    static final int SHIFT = 1;

    private static final JdbcTemplate UNRECORDED = new JdbcTemplate(EmbeddedPostgres.dataSource());

    private Ward() {
    }

    /** A stockroom with 10 boxes of gloves and nothing else. */
    static void stockTenBoxesOfGloves() {
        UNRECORDED.update("DELETE FROM supply");
        UNRECORDED.update("INSERT INTO supply (sku, on_hand) VALUES (?, 10)", GLOVES);
    }

    /** The boxes of gloves on hand now. */
    static int glovesOnHand() {
        return UNRECORDED.queryForObject("SELECT on_hand FROM supply WHERE sku = ?", Integer.class, GLOVES);
    }

    /** A rota of Alice and Bob, both on call. */
    static void putAliceAndBobOnCall() {
        UNRECORDED.update("DELETE FROM doctor");
        UNRECORDED.update("INSERT INTO doctor (name, shift, on_call) VALUES ('alice', ?, TRUE), ('bob', ?, TRUE)", SHIFT, SHIFT);
    }

    /** The doctors on call now. */
    static List<String> onCall() {
        return UNRECORDED.queryForList("SELECT name FROM doctor WHERE shift = ? AND on_call ORDER BY name", String.class, SHIFT);
    }

    /**
     * Runs both requests at once, each on a thread of its own named after it (a recording bound to
     * the test's thread is inherited by them), and waits for both.
     *
     * @return for each request, in order, {@code null} when it went through, or what it threw
     */
    static List<Throwable> atOnce(String firstName, Runnable first, String secondName, Runnable second)
            throws InterruptedException {
        Throwable[] outcomes = new Throwable[2];
        Thread a = new Thread(() -> run(first, outcomes, 0), firstName);
        Thread b = new Thread(() -> run(second, outcomes, 1), secondName);
        a.start();
        b.start();
        a.join();
        b.join();
        // join() makes the threads' writes visible here.
        List<Throwable> result = new ArrayList<>(2);
        result.add(outcomes[0]);
        result.add(outcomes[1]);
        return result;
    }

    private static void run(Runnable request, Throwable[] outcomes, int index) {
        try {
            request.run();
        } catch (Throwable e) {
            outcomes[index] = e;
        }
    }
}
