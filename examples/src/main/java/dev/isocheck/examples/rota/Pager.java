package dev.isocheck.examples.rota;

import java.util.List;

/**
 * Tells doctors what changed on the rota: in production a call to the hospital's paging service,
 * made while the rota's transaction is open.
 */
@FunctionalInterface
public interface Pager {

    /** Pages nobody. */
    Pager NONE = (doctors, message) -> { };

    /** Sends {@code message} to each of {@code doctors}. */
    void page(List<String> doctors, String message);
}
