package dev.isocheck.internal.simulate;

import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import java.util.List;
import java.util.Objects;

/**
 * A generated history with the bugs the simulated database injected into it.
 *
 * @param seed    the seed it was generated from
 * @param history the recorded history
 * @param bugs    every injected bug that took effect, in the order the affected transactions ended
 */
public record GeneratedHistory(long seed, History history, List<InjectedBug> bugs) {

    /** Validates and copies. */
    public GeneratedHistory {
        Objects.requireNonNull(history, "history is null");
        bugs = List.copyOf(bugs);
    }

    /** The injected bugs of one kind, in order. */
    public List<InjectedBug> bugs(InjectedBug.Kind kind) {
        return bugs.stream().filter(b -> b.kind() == kind).toList();
    }

    /** The history as text, one transaction a line, for failure messages. */
    public String render() {
        StringBuilder out = new StringBuilder();
        for (Transaction t : history.transactions()) {
            out.append(history.sessionOf(t).name()).append(' ').append(t).append('\n');
        }
        return out.toString();
    }
}
