package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.history.OpKind;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The names developers know a non-cycle anomaly by, beside Adya's and Elle's. */
class ReadAnomalyTests {

    private static OperationRef op(String transaction, int index, OpKind kind) {
        return new OperationRef(transaction, index, -1, kind, Optional.of("x/1"), Optional.empty(), kind + " of x/1",
                OptionalInt.empty());
    }

    private static ReadAnomaly anomaly(AnomalyType type, OpKind read, OpKind... related) {
        List<ReadAnomaly.Related> others = java.util.Arrays.stream(related)
                .map(kind -> new ReadAnomaly.Related(op("T1", 0, kind), "earlier")).toList();
        return new ReadAnomaly(type, op("T1", 1, read), others, "why");
    }

    @Test
    void twoReadsOfARowThatSawTwoVersionsAreANonRepeatableRead() {
        assertThat(anomaly(AnomalyType.INTERNAL, OpKind.READ, OpKind.READ).familiarName()).contains("non-repeatable read");
        assertThat(anomaly(AnomalyType.INTERNAL, OpKind.PREDICATE, OpKind.READ).familiarName()).contains("non-repeatable read");
        // A row two predicate reads returned in two versions: the row's value changed, not the set.
        assertThat(anomaly(AnomalyType.INTERNAL, OpKind.PREDICATE, OpKind.PREDICATE).familiarName()).contains("non-repeatable read");
    }

    @Test
    void aReadThatContradictsTheTransactionsOwnWriteHasNoFamiliarName() {
        assertThat(anomaly(AnomalyType.INTERNAL, OpKind.READ, OpKind.WRITE).familiarName()).isEmpty();
        assertThat(anomaly(AnomalyType.INTERNAL, OpKind.READ).familiarName()).isEmpty();
    }

    @Test
    void readsOfAbortedAndIntermediateWritesAreDirtyReads() {
        assertThat(anomaly(AnomalyType.G1A, OpKind.READ, OpKind.WRITE).familiarName()).contains("dirty read");
        assertThat(anomaly(AnomalyType.G1B, OpKind.READ, OpKind.WRITE).familiarName()).contains("dirty read");
        assertThat(anomaly(AnomalyType.THIN_AIR, OpKind.READ).familiarName()).isEmpty();
    }
}
