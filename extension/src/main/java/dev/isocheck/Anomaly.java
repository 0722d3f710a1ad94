package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Evidence that a history violates a level: what kind of anomaly, the transactions involved
 * (by id, in the order that tells the story), and an explanation in words.
 *
 * @param type         the kind of anomaly
 * @param transactions ids of the transactions involved; never {@code null} but potentially empty
 * @param explanation  one or more sentences naming the operations that show the anomaly
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Anomaly(AnomalyType type, List<String> transactions, String explanation) {

    /** Validates and copies. */
    public Anomaly {
        Objects.requireNonNull(type, "type is null");
        transactions = List.copyOf(transactions);
        Objects.requireNonNull(explanation, "explanation is null");
    }

    @Override
    public String toString() {
        return type.shortName() + " (" + type.description() + "): " + explanation;
    }
}
