package dev.isocheck.examples.spring;

import java.util.List;
import org.springframework.context.annotation.Primary;

/**
 * The tests' porter and pager, in place of the application's: each request calls one of them
 * between its read and its write, and they hold it at the test's {@link Rendezvous}, so that the
 * two requests of a test overlap on every run. One bean for every test of a context: each test
 * gives it its rendezvous.
 */
@Primary
class HeldRequests implements Porter, Pager {

    private volatile Rendezvous rendezvous;

    /** Holds the requests from now on at {@code rendezvous}. */
    void holdAt(Rendezvous rendezvous) {
        this.rendezvous = rendezvous;
    }

    @Override
    public void fetch(String sku, int quantity) {
        hold();
    }

    @Override
    public void page(List<String> doctors, String message) {
        hold();
    }

    private void hold() {
        Rendezvous current = rendezvous;
        if (current != null) {
            current.arrive();
        }
    }
}
