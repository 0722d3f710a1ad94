package dev.isocheck.examples.spring;

import java.util.List;

/**
 * Pages doctors; the rota calls it while a doctor's request to go off call is in its transaction:
 * after the doctors on call have been read, before the doctor's own row is written.
 */
@FunctionalInterface
public interface Pager {

    /** Sends {@code message} to {@code doctors}. */
    void page(List<String> doctors, String message);
}
