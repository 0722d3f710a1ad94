package dev.isocheck.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueTests {

    @Test
    void numbersCompareByWhatTheyMean() {
        assertThat(Value.of(1)).isEqualTo(Value.of(1L)).isEqualTo(Value.of(1.0)).isEqualTo(Value.of(new BigDecimal("1.000")));
        assertThat(Value.of(1).hashCode()).isEqualTo(Value.of(new BigDecimal("1.0")).hashCode());
        assertThat(Value.of(0.5)).isEqualTo(Value.of(new BigDecimal("0.50"))).isNotEqualTo(Value.of(0));
        assertThat(Value.of(new BigDecimal("-0.0"))).isEqualTo(Value.of(0));
        BigInteger huge = BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE);
        assertThat(Value.of(huge)).isEqualTo(Value.of(new BigDecimal(huge))).isNotEqualTo(Value.of(Long.MAX_VALUE));
        assertThat(Value.of(1)).isNotEqualTo(Value.of("1")).isNotEqualTo(Value.of(true));
    }

    @Test
    void rowsCompareRegardlessOfFieldOrder() {
        Value a = Value.of(Map.of("id", 1, "balance", 10));
        Value b = Value.of(new java.util.LinkedHashMap<>(Map.of("balance", 10L, "id", 1.0)));
        assertThat(a).isEqualTo(b);
        assertThat(a.toString()).isEqualTo("{\"balance\":10,\"id\":1}");
    }

    @Test
    void aPartialRowIsConsistentWithTheRowItWasReadFrom() {
        Value written = Value.of(Map.of("id", 1, "balance", 10, "owner", "ann"));
        assertThat(Value.of(Map.of("balance", 10)).isConsistentWith(written)).isTrue();
        assertThat(Value.of(Map.of("balance", 10, "id", 1)).isConsistentWith(written)).isTrue();
        assertThat(Value.of(Map.of("balance", 11)).isConsistentWith(written)).isFalse();
        assertThat(Value.of(Map.of("balance", 10, "extra", 1)).isConsistentWith(written)).isFalse();
        // The other way round is not a partial read: the written row lacks nothing the reader saw.
        assertThat(written.isConsistentWith(Value.of(Map.of("balance", 10)))).isFalse();
        assertThat(Value.ABSENT.isConsistentWith(written)).isFalse();
        assertThat(Value.of(Map.of()).isConsistentWith(Value.ABSENT)).isFalse();
        assertThat(Value.ABSENT.isConsistentWith(Value.ABSENT)).isTrue();
        assertThat(Value.of(5).isConsistentWith(Value.of(5.0))).isTrue();
    }

    @Test
    void nestedValuesCompareByEquality() {
        Value written = Value.of(Map.of("tags", List.of("a", "b"), "meta", Map.of("x", 1, "y", 2)));
        assertThat(Value.of(Map.of("meta", Map.of("x", 1))).isConsistentWith(written)).isFalse();
        assertThat(Value.of(Map.of("meta", Map.of("x", 1, "y", 2))).isConsistentWith(written)).isTrue();
        assertThat(Value.of(Map.of("tags", List.of("a", "b"))).isConsistentWith(written)).isTrue();
    }

    @Test
    void accessorsAndJsonForm() {
        assertThat(Value.ABSENT.isAbsent()).isTrue();
        assertThat(Value.ABSENT.toString()).isEqualTo("null");
        assertThat(Value.of((Object) null)).isSameAs(Value.ABSENT);
        assertThat(Value.of("it's \"quoted\"").toString()).isEqualTo("\"it's \\\"quoted\\\"\"");
        assertThat(Value.of(2.5).asDecimal()).contains(new BigDecimal("2.5"));
        assertThat(Value.of(Map.of("a", true)).field("a")).contains(Value.of(true));
        assertThat(Value.of(List.of(1, 2)).items()).containsExactly(Value.of(1), Value.of(2));
        assertThat(Value.of(new Object[] {1, "x"})).isEqualTo(Value.of(List.of(1, "x")));
    }

    @Test
    void whatIsNotJsonIsRefusedByName() {
        assertThatThrownBy(() -> Value.of(new Object())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a JSON-like value: java.lang.Object");
        assertThatThrownBy(() -> Value.of(Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> Value.of(Map.of(1, 2))).hasMessageContaining("field names must be strings");
    }

    @Test
    void numbersWithAbsurdExponentsAreRefusedCheaply() {
        for (String number : List.of("1e999999999", "1e100000000", "-1e-999999999", "1e1000001")) {
            assertThatThrownBy(() -> Value.of(new BigDecimal(number)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
        }
        assertThat(Value.of(new BigDecimal("1e1000000")).isNumber()).isTrue();
        assertThat(Value.of(new BigDecimal("1e1000000"))).isEqualTo(Value.of(new BigDecimal("10e999999")));
        assertThat(Value.of(new BigDecimal("9.2e18"))).isEqualTo(Value.of(new BigDecimal("9200000000000000000")));
        assertThat(Value.of(new BigDecimal("9.2e18")).toJava()).isEqualTo(9_200_000_000_000_000_000L);
        assertThat(Value.of(new BigDecimal("1e19")).toJava()).isEqualTo(new BigDecimal("1e19"));
        assertThat(Value.of(new BigDecimal("-9223372036854775808")).toJava()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aNullObservedFieldIsConsistentWithARowWithoutTheField() {
        Map<String, Object> observed = new java.util.HashMap<>(Map.of("id", 1, "v", 2));
        observed.put("note", null);
        Value written = Value.of(Map.of("id", 1, "v", 2));
        assertThat(Value.of(observed).isConsistentWith(written)).isTrue();
        Map<String, Object> writtenNull = new java.util.HashMap<>(Map.of("id", 1, "v", 2));
        writtenNull.put("note", null);
        assertThat(Value.of(observed).isConsistentWith(Value.of(writtenNull))).isTrue();
        assertThat(Value.of(observed).isConsistentWith(Value.of(Map.of("id", 1, "v", 2, "note", "x")))).isFalse();
        assertThat(Value.of(observed).isConsistentWith(Value.of(Map.of("id", 1, "v", 3)))).isFalse();
        // A present observed field still needs the written field.
        assertThat(Value.of(Map.of("id", 1, "note", "x")).isConsistentWith(written)).isFalse();
        // Only row fields: a whole absent value is not a row, and nested values compare by equality.
        assertThat(Value.ABSENT.isConsistentWith(written)).isFalse();
        Map<String, Object> nestedNull = new java.util.HashMap<>();
        nestedNull.put("n", null);
        assertThat(Value.of(Map.of("a", nestedNull)).isConsistentWith(Value.of(Map.of("a", Map.of())))).isFalse();
    }
}
