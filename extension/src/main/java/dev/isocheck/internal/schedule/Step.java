package dev.isocheck.internal.schedule;

import java.util.Optional;

/**
 * One thread let through the gate: the call it made and what became of it.
 *
 * @param index     the step's number in the run, from 1
 * @param letter    the thread's letter
 * @param thread    the thread's name
 * @param what      the statement's SQL, or {@code commit}, {@code rollback}, {@code getConnection}
 * @param waited    how long the call was still in the database when the gate let another thread
 *                  go ({@code 0} when it came back first), in milliseconds: it waited for a lock,
 *                  most likely one another thread held
 * @param blockedBy whose lock the database said the call waited for ({@code B (client-b)}), where it
 *                  said
 * @param failure   the SQLSTATE or exception the call ended with, if it threw
 * @param afterward what the thread did after the call that the gate could not see, if anything:
 *                  it waited outside the database (an application lock, a pool, a future)
 */
public record Step(int index, String letter, String thread, String what, long waited, Optional<String> blockedBy,
        Optional<String> failure, Optional<String> afterward) {

    /** One line for a failure message: number, letter, thread, call, and what became of it. */
    public String line(int threadWidth) {
        StringBuilder line = new StringBuilder(String.format("%4d  %-3s %-" + threadWidth + "s  %s", index, letter, thread,
                oneLine(what)));
        if (waited > 0 && blockedBy.isPresent()) {
            line.append("   [waited ").append(waited).append(" ms for a lock ").append(blockedBy.get())
                    .append(" held: the gate let another thread go]");
        } else if (waited > 0) {
            line.append("   [still in the database after ").append(waited)
                    .append(" ms (waiting for a lock, most likely): the gate let another thread go]");
        }
        failure.ifPresent(f -> line.append("   [threw ").append(f).append(']'));
        afterward.ifPresent(a -> line.append("   [then ").append(a).append(']'));
        return line.toString();
    }

    private static String oneLine(String sql) {
        String flat = sql.strip().replaceAll("\\s+", " ");
        return flat.length() > 120 ? flat.substring(0, 117) + "..." : flat;
    }
}
