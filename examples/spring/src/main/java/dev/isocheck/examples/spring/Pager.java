package dev.isocheck.examples.spring;

import java.util.List;

/** Pages doctors: the rota tells the doctors who stay on call that one is going off call. */
@FunctionalInterface
public interface Pager {

    /** Sends {@code message} to {@code doctors}. */
    void page(List<String> doctors, String message);
}
