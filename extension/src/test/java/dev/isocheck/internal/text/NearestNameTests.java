package dev.isocheck.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NearestNameTests {

    private static final List<String> TRANSACTION = List.of("id", "session", "status", "start", "end", "thread",
            "statements", "ops");

    @ParameterizedTest
    @CsvSource({
        "stauts, status",
        "sesion, session",
        "opps, ops",
        "Ops, ops",
        "statement, statements",
        "satus, status",
        "edn, end",
        "Id, id",
    })
    void slipsFindTheFieldTheyAreNearest(String slip, String field) {
        assertThat(NearestName.of(slip, TRANSACTION)).contains(field);
    }

    @ParameterizedTest
    @CsvSource({"x", "comment", "label", "timestamp"})
    void namesThatAreNoSlipFindNothing(String name) {
        assertThat(NearestName.of(name, TRANSACTION)).isEmpty();
    }

    @Test
    void aSwapOfNeighboursIsOneEdit() {
        assertThat(NearestName.distance("stauts", "status")).isEqualTo(1);
        assertThat(NearestName.distance("compelte", "complete")).isEqualTo(1);
        assertThat(NearestName.distance("", "abc")).isEqualTo(3);
        assertThat(NearestName.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(NearestName.distance("ab", "ba")).isEqualTo(1);
        assertThat(NearestName.distance("abc", "abc")).isZero();
    }

    @Test
    void aLongerSpellingOfAKnownNameFindsIt() {
        assertThat(NearestName.of("report.directory", List.of("level", "report.dir"))).contains("report.dir");
        assertThat(NearestName.of("le", List.of("level"))).isEmpty();
    }

    @Test
    void aNameOfMegabytesIsComparedWithoutATable() {
        assertThat(NearestName.of("s".repeat(10_000_000), TRANSACTION)).isEmpty();
    }
}
