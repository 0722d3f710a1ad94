package dev.isocheck.internal.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.isocheck.history.Value;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class WherePredicateTests {

    /** A row with fields given as name, value pairs; a {@code null} value is a JSON null field. */
    private static Value row(Object... nameValues) {
        Map<String, Object> fields = new HashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            fields.put((String) nameValues[i], nameValues[i + 1]);
        }
        return Value.of(fields);
    }

    private static final Value DOCTOR = row("id", 1, "on_call", true, "shift", 1, "name", "Alice", "rate", 12.5);
    private static final Value OFF_DUTY = row("id", 2, "on_call", false, "shift", 2, "name", "bob");
    private static final Value NO_SHIFT = row("id", 3, "on_call", true, "shift", null, "name", "50%_off.*");

    static Stream<Arguments> table() {
        return Stream.of(
                // comparisons
                arguments("on_call = TRUE", DOCTOR, Truth.TRUE),
                arguments("on_call = TRUE", OFF_DUTY, Truth.FALSE),
                arguments("on_call = TRUE AND shift = 1", DOCTOR, Truth.TRUE),
                arguments("shift <> 1", OFF_DUTY, Truth.TRUE),
                arguments("shift != 2", OFF_DUTY, Truth.FALSE),
                arguments("shift < 2", DOCTOR, Truth.TRUE),
                arguments("shift <= 1", DOCTOR, Truth.TRUE),
                arguments("shift > 1", DOCTOR, Truth.FALSE),
                arguments("shift >= 2", OFF_DUTY, Truth.TRUE),
                arguments("rate = 12.50", DOCTOR, Truth.TRUE),
                arguments("rate > 1.25e1", DOCTOR, Truth.FALSE),
                arguments("id > -1", DOCTOR, Truth.TRUE),
                arguments("name = 'Alice'", DOCTOR, Truth.TRUE),
                arguments("name < 'B'", DOCTOR, Truth.TRUE),
                arguments("name < 'B'", OFF_DUTY, Truth.FALSE),
                arguments("name = 'alice'", DOCTOR, Truth.FALSE),
                arguments("on_call > FALSE", DOCTOR, Truth.TRUE),
                arguments("1 = 1", DOCTOR, Truth.TRUE),
                // arithmetic, as SQL computes it where the answer does not depend on the columns' types
                arguments("shift + 1 = 2", DOCTOR, Truth.TRUE),
                arguments("-shift = -1", DOCTOR, Truth.TRUE),
                arguments("rate - 2.5 >= 10", DOCTOR, Truth.TRUE),
                arguments("id * 3 % 3 = 0", DOCTOR, Truth.TRUE),
                arguments("-7 % shift = -1", OFF_DUTY, Truth.TRUE),
                arguments("6 / shift = 3", OFF_DUTY, Truth.TRUE),
                // 7 / 2 is 3 between integers and 3.5 between decimals: the values do not say which
                arguments("7 / shift = 3", OFF_DUTY, Truth.INDETERMINATE),
                arguments("rate % 2 = 0.5", DOCTOR, Truth.INDETERMINATE),
                arguments("id / 0 = 1", DOCTOR, Truth.INDETERMINATE),
                arguments("shift + 1 = 2", NO_SHIFT, Truth.UNKNOWN),
                arguments("name + 1 = 2", DOCTOR, Truth.INDETERMINATE),
                // beyond 32 bits an integer column overflows into an error
                arguments("id * 4294967296 > 0", DOCTOR, Truth.INDETERMINATE),
                // qualified, quoted and case-folded columns
                arguments("d.on_call = TRUE", DOCTOR, Truth.TRUE),
                arguments("ON_CALL = TRUE", DOCTOR, Truth.TRUE),
                arguments("\"ON_CALL\" = TRUE", DOCTOR, Truth.UNKNOWN),
                arguments("\"on_call\" = TRUE", DOCTOR, Truth.TRUE),
                // two fields equal ignoring case: which one an unquoted name reads depends on the
                // database (PostgreSQL folds to lower case, Oracle to upper case)
                arguments("v >= 0", row("v", 3, "V", -1), Truth.INDETERMINATE),
                arguments("V >= 0", row("v", 3, "V", -1), Truth.INDETERMINATE),
                arguments("v IS NULL", row("v", 3, "V", null), Truth.INDETERMINATE),
                arguments("v >= 0 AND id = 2", row("id", 1, "v", 3, "V", -1), Truth.FALSE),
                arguments("\"v\" >= 0", row("v", 3, "V", -1), Truth.TRUE),
                arguments("\"V\" >= 0", row("v", 3, "V", -1), Truth.FALSE),
                // NULL: missing and null fields, NULL literals, three-valued connectives
                arguments("shift = 1", NO_SHIFT, Truth.UNKNOWN),
                arguments("missing = 1", DOCTOR, Truth.UNKNOWN),
                arguments("NULL = NULL", DOCTOR, Truth.UNKNOWN),
                arguments("shift = NULL", DOCTOR, Truth.UNKNOWN),
                arguments("NOT shift = 1", NO_SHIFT, Truth.UNKNOWN),
                arguments("shift = 1 OR on_call = TRUE", NO_SHIFT, Truth.TRUE),
                arguments("shift = 1 OR on_call = FALSE", NO_SHIFT, Truth.UNKNOWN),
                arguments("shift = 1 AND on_call = FALSE", NO_SHIFT, Truth.FALSE),
                arguments("shift = 1 AND on_call = TRUE", NO_SHIFT, Truth.UNKNOWN),
                arguments("shift IS NULL", NO_SHIFT, Truth.TRUE),
                arguments("missing IS NULL", DOCTOR, Truth.TRUE),
                arguments("shift IS NOT NULL", NO_SHIFT, Truth.FALSE),
                arguments("shift IS NOT NULL", DOCTOR, Truth.TRUE),
                arguments("NOT (shift = 1 OR shift = 2)", OFF_DUTY, Truth.FALSE),
                arguments("(shift = 1) IS NOT TRUE", NO_SHIFT, Truth.TRUE),
                arguments("on_call", DOCTOR, Truth.TRUE),
                arguments("NOT on_call", DOCTOR, Truth.FALSE),
                // IN, with NULL in the list
                arguments("shift IN (1, 2)", DOCTOR, Truth.TRUE),
                arguments("shift IN (3, 4)", DOCTOR, Truth.FALSE),
                arguments("shift NOT IN (3, 4)", DOCTOR, Truth.TRUE),
                arguments("shift IN (1, NULL)", DOCTOR, Truth.TRUE),
                arguments("shift IN (3, NULL)", DOCTOR, Truth.UNKNOWN),
                arguments("shift NOT IN (3, NULL)", DOCTOR, Truth.UNKNOWN),
                arguments("shift IN (1, 2)", NO_SHIFT, Truth.UNKNOWN),
                arguments("name IN ('Alice', 'bob')", OFF_DUTY, Truth.TRUE),
                // BETWEEN
                arguments("shift BETWEEN 1 AND 2", DOCTOR, Truth.TRUE),
                arguments("shift BETWEEN 2 AND 3", DOCTOR, Truth.FALSE),
                arguments("shift NOT BETWEEN 2 AND 3", DOCTOR, Truth.TRUE),
                arguments("shift BETWEEN 1 AND 2", NO_SHIFT, Truth.UNKNOWN),
                arguments("shift BETWEEN 2 AND NULL", DOCTOR, Truth.FALSE),
                arguments("shift BETWEEN 0 AND NULL", DOCTOR, Truth.UNKNOWN),
                // LIKE: % and _, regex metacharacters meaning themselves, ESCAPE
                arguments("name LIKE 'A%'", DOCTOR, Truth.TRUE),
                arguments("name LIKE 'a%'", DOCTOR, Truth.FALSE),
                arguments("name LIKE '_lice'", DOCTOR, Truth.TRUE),
                arguments("name LIKE '_ice'", DOCTOR, Truth.FALSE),
                arguments("name NOT LIKE '%z%'", DOCTOR, Truth.TRUE),
                arguments("name LIKE '50%.*'", NO_SHIFT, Truth.TRUE),
                arguments("name LIKE '50.*%'", NO_SHIFT, Truth.FALSE),
                arguments("name LIKE '50!%!_off%' ESCAPE '!'", NO_SHIFT, Truth.TRUE),
                arguments("name LIKE '50!%!_off%' ESCAPE '!'", DOCTOR, Truth.FALSE),
                arguments("missing LIKE '%'", DOCTOR, Truth.UNKNOWN),
                // a backslash in a LIKE pattern: PostgreSQL's and MySQL's default escape, SQLite's
                // ordinary character, so what it matches depends on the database
                arguments("name LIKE 'a\\_b'", row("name", "a_b"), Truth.INDETERMINATE),
                arguments("name LIKE 'a\\_b'", row("name", "a\\xb"), Truth.INDETERMINATE),
                arguments("name NOT LIKE 'a\\_b'", row("name", "a_b"), Truth.INDETERMINATE),
                arguments("name LIKE 'a\\%'", row("name", "zzz"), Truth.INDETERMINATE),
                arguments("name LIKE 'a_b' ESCAPE '\\'", row("name", "a_b"), Truth.INDETERMINATE),
                arguments("name LIKE 'a\\_b' ESCAPE '!'", row("name", "a_b"), Truth.INDETERMINATE),
                arguments("missing LIKE 'a\\_b'", DOCTOR, Truth.UNKNOWN),
                arguments("id = 2 AND name LIKE 'a\\_b'", DOCTOR, Truth.FALSE),
                arguments("id = 1 OR name LIKE 'a\\_b'", DOCTOR, Truth.TRUE),
                // a backslash in a string literal: an escape in MySQL ('a\\b' is a\b), itself in
                // PostgreSQL and SQLite
                arguments("name = 'a\\\\b'", row("name", "a\\\\b"), Truth.INDETERMINATE),
                arguments("name = 'a\\\\b'", row("name", "a\\b"), Truth.INDETERMINATE),
                arguments("name <> 'a\\b'", row("name", "x"), Truth.INDETERMINATE),
                arguments("name IN ('x', 'a\\b')", row("name", "x"), Truth.TRUE),
                arguments("name IN ('y', 'a\\b')", row("name", "x"), Truth.INDETERMINATE),
                arguments("name = 'a\\b' AND id = 2", DOCTOR, Truth.FALSE),
                // mismatched types: the database might convert or reject, so we cannot tell
                arguments("shift = '1'", DOCTOR, Truth.INDETERMINATE),
                arguments("on_call = 1", DOCTOR, Truth.INDETERMINATE),
                arguments("shift LIKE '1%'", DOCTOR, Truth.INDETERMINATE),
                arguments("shift = '1' AND on_call = FALSE", DOCTOR, Truth.FALSE),
                arguments("shift = '1' OR on_call = TRUE", DOCTOR, Truth.TRUE),
                arguments("name", DOCTOR, Truth.INDETERMINATE),
                // rows that are not objects
                arguments("on_call = TRUE", Value.ABSENT, Truth.FALSE),
                arguments("shift IS NULL", Value.ABSENT, Truth.FALSE),
                arguments("on_call = TRUE", Value.of(5), Truth.INDETERMINATE));
    }

    @ParameterizedTest(name = "{0} on {1} is {2}")
    @MethodSource("table")
    void evaluatesWithThreeValuedLogic(String where, Value row, Truth expected) {
        assertThat(WherePredicate.parse(where)).isInstanceOf(WherePredicate.class);
        assertThat(((WherePredicate) WherePredicate.parse(where)).evaluate(row)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} is unsupported")
    @ValueSource(strings = {
        "lower(name) = 'alice'",
        "shift DIV 2 = 1",
        "name || 'x' = 'ax'",
        "shift IN (SELECT 1)",
        "EXISTS (SELECT 1)",
        "shift = (SELECT 1)",
        "shift = ?",
        "shift = 1 XOR on_call = TRUE",
        "name ILIKE 'a%'",
        "name LIKE other",
        "name LIKE 'a!' ESCAPE '!'",
        "shift IS DISTINCT FROM 1",
        "(shift, id) IN ((1, 2))",
        "shift = 1 AND",
        "shift = 1 garbage",
        "shift = 'unterminated",
        "",
        "   "})
    void refusesWhatItDoesNotSupport(String where) {
        ParsedWhere parsed = WherePredicate.parse(where);
        assertThat(parsed).isInstanceOf(UnsupportedWhere.class);
        assertThat(parsed.isSupported()).isFalse();
        assertThat(((UnsupportedWhere) parsed).reason()).isNotBlank().doesNotContain("\n");
    }

    @Test
    void truthConnectivesFollowSql() {
        assertThat(Truth.UNKNOWN.not()).isEqualTo(Truth.UNKNOWN);
        assertThat(Truth.UNKNOWN.or(Truth.TRUE)).isEqualTo(Truth.TRUE);
        assertThat(Truth.UNKNOWN.and(Truth.FALSE)).isEqualTo(Truth.FALSE);
        assertThat(Truth.UNKNOWN.and(Truth.TRUE)).isEqualTo(Truth.UNKNOWN);
        assertThat(Truth.INDETERMINATE.and(Truth.FALSE)).isEqualTo(Truth.FALSE);
        assertThat(Truth.INDETERMINATE.or(Truth.TRUE)).isEqualTo(Truth.TRUE);
        assertThat(Truth.INDETERMINATE.or(Truth.UNKNOWN)).isEqualTo(Truth.INDETERMINATE);
    }

    @Test
    void namesTheColumnsItComparesByOrder() {
        WherePredicate p = (WherePredicate) WherePredicate.parse(
                "name = 'a' AND tag <> 'b' AND code IN ('c') AND note LIKE 'd%' AND n < 3 AND 'x' >= label"
                        + " AND m BETWEEN lo AND 5 AND gone IS NULL AND NOT (z > 1)");
        assertThat(p.orderedColumns()).containsExactlyInAnyOrder("n", "label", "m", "lo", "z");
        assertThat(p.columns()).contains("name", "tag", "code", "note", "gone");
    }

    @Test
    void namesTheColumnsItReads() {
        WherePredicate p = (WherePredicate) WherePredicate.parse("d.on_call = TRUE AND (shift IN (1, 2) OR name LIKE 'A%')");
        assertThat(p.columns()).containsExactly("on_call", "shift", "name");
        assertThat(p.namesOnlyFieldsOf(row("on_call", true, "shift", 1, "name", "x"))).isTrue();
        assertThat(p.namesOnlyFieldsOf(row("on_call", true, "shift", null, "name", "x"))).isTrue();
        assertThat(p.namesOnlyFieldsOf(row("on_call", true, "name", "x"))).isFalse();
        assertThat(p.namesOnlyFieldsOf(Value.of(1))).isFalse();
        // A field equal only ignoring case is not known to be the one read: the row may also have
        // an unobserved field "shift", which the unquoted column would read instead.
        assertThat(p.namesOnlyFieldsOf(row("on_call", true, "SHIFT", 1, "name", "x"))).isFalse();
        // Nor is a field of exactly the name when another one equals it ignoring case.
        assertThat(p.namesOnlyFieldsOf(row("on_call", true, "shift", 1, "Shift", 2, "name", "x"))).isFalse();
        WherePredicate quoted = (WherePredicate) WherePredicate.parse("\"shift\" = 1");
        assertThat(quoted.namesOnlyFieldsOf(row("shift", 1, "Shift", 2))).isTrue();
    }

    @Test
    void certainlySelectsOnlyWhatNoUnseenFieldCouldUnselect() {
        WherePredicate p = (WherePredicate) WherePredicate.parse("on_call = TRUE AND shift IS NULL");
        assertThat(p.certainlySelects(row("on_call", true, "shift", null))).isTrue();
        assertThat(p.certainlySelects(row("id", 9, "on_call", true, "shift", null))).isTrue();
        // TRUE on what is known, but the row may have a shift that was not observed.
        assertThat(p.evaluate(row("on_call", true))).isEqualTo(Truth.TRUE);
        assertThat(p.certainlySelects(row("on_call", true))).isFalse();
        // Nor when the field is known only ignoring case: "shift" may be another, unseen field.
        assertThat(p.certainlySelects(row("on_call", true, "SHIFT", null))).isFalse();
        assertThat(p.certainlySelects(row("on_call", false, "shift", null))).isFalse();
        assertThat(p.certainlySelects(Value.ABSENT)).isFalse();
        assertThat(p.certainlySelects(Value.of(1))).isFalse();
        // UNKNOWN and INDETERMINATE are not TRUE.
        WherePredicate shiftOne = (WherePredicate) WherePredicate.parse("shift = 1");
        assertThat(shiftOne.certainlySelects(row("shift", null))).isFalse();
        assertThat(shiftOne.evaluate(row("shift", "1"))).isEqualTo(Truth.INDETERMINATE);
        assertThat(shiftOne.certainlySelects(row("shift", "1"))).isFalse();
    }

    @Test
    void absurdNumbersAreUnsupported() {
        for (String where : List.of("x = 1e999999999", "x = 1e2147483648", "x IN (1, -1e-999999999)")) {
            ParsedWhere parsed = WherePredicate.parse(where);
            assertThat(parsed).as(where).isInstanceOf(UnsupportedWhere.class);
            assertThat(((UnsupportedWhere) parsed).reason()).isNotBlank().doesNotContain("\n");
        }
    }

    @Test
    void longChainsAreFlattenedNotRecursedInto() {
        for (String connective : List.of(" OR ", " AND ")) {
            StringBuilder where = new StringBuilder("x = 0");
            for (int i = 1; i < 10_000; i++) {
                where.append(connective).append(connective.equals(" OR ") ? "x = " + i : "x <> " + (i + 20_000));
            }
            ParsedWhere parsed = WherePredicate.parse(where.toString());
            assertThat(parsed).as(connective).isInstanceOf(WherePredicate.class);
            WherePredicate p = (WherePredicate) parsed;
            assertThat(p.evaluate(row("x", 0))).isEqualTo(Truth.TRUE);
            if (connective.equals(" OR ")) {
                assertThat(p.evaluate(row("x", 9_999))).isEqualTo(Truth.TRUE);
                assertThat(p.evaluate(row("x", 10_000))).isEqualTo(Truth.FALSE);
            } else {
                assertThat(p.evaluate(row("x", 29_999))).isEqualTo(Truth.FALSE);
            }
            assertThat(p.evaluate(row("y", 1))).isEqualTo(Truth.UNKNOWN);
        }
        // parentheses inside a chain of the same connective
        WherePredicate mixed = (WherePredicate) WherePredicate.parse("(x = 1 OR (x = 2 OR x = 3)) OR x = 4 AND y = 5");
        assertThat(mixed.evaluate(row("x", 3))).isEqualTo(Truth.TRUE);
        assertThat(mixed.evaluate(row("x", 4, "y", 5))).isEqualTo(Truth.TRUE);
        assertThat(mixed.evaluate(row("x", 4, "y", 6))).isEqualTo(Truth.FALSE);
    }

    @Test
    void deepNestingIsUnsupportedNeverAStackOverflow() {
        String parens = "(".repeat(3_000) + "x = 1" + ")".repeat(3_000);
        String nots = "NOT (".repeat(3_000) + "x = 1" + ")".repeat(3_000);
        StringBuilder alternating = new StringBuilder("x = 0");
        for (int i = 1; i < 3_000; i++) {
            alternating.insert(0, "(").append(i % 2 == 0 ? " AND " : " OR ").append("x = ").append(i).append(")");
        }
        for (String where : List.of(parens, nots, alternating.toString(), "(".repeat(101) + "x = 1" + ")".repeat(101))) {
            ParsedWhere parsed = WherePredicate.parse(where);
            assertThat(parsed).isInstanceOf(UnsupportedWhere.class);
            assertThat(((UnsupportedWhere) parsed).reason()).isNotBlank().doesNotContain("\n");
        }
        // Up to 100 parentheses deep is parsed; redundant ones add no depth to the condition.
        WherePredicate hundred = (WherePredicate) WherePredicate.parse("(".repeat(100) + "x = 1" + ")".repeat(100));
        assertThat(hundred.evaluate(row("x", 1))).isEqualTo(Truth.TRUE);
        // Parentheses inside strings and quoted names do not count.
        assertThat(WherePredicate.parse("x = '" + "(".repeat(200) + "'")).isInstanceOf(WherePredicate.class);
        assertThat(WherePredicate.parenthesisDepth("(a = '(((') AND \"((\" = 1")).isEqualTo(1);
    }

    @Test
    void conditionsNestedBeyondTheLimitAreUnsupported() throws Exception {
        // Beyond what the parenthesis bound lets through, the compiler's own bound still holds.
        net.sf.jsqlparser.expression.Expression e = new net.sf.jsqlparser.expression.NotExpression(
                net.sf.jsqlparser.parser.CCJSqlParserUtil.parseCondExpression("x = 0", false));
        for (int i = 1; i < WhereCompiler.MAX_DEPTH; i++) {
            e = new net.sf.jsqlparser.expression.NotExpression(e);
        }
        net.sf.jsqlparser.expression.Expression tooDeep = e;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WhereCompiler().condition(tooDeep))
                .isInstanceOf(WhereCompiler.Refused.class).hasMessageContaining("nested more than");
        net.sf.jsqlparser.expression.Expression atLimit = ((net.sf.jsqlparser.expression.NotExpression) e).getExpression();
        assertThat(new WhereCompiler().condition(atLimit).evaluate(row("x", 0))).isEqualTo(Truth.FALSE);
    }

    @Test
    void parsesEachDistinctClauseOnce() {
        assertThat(WherePredicate.parse("shift = 7")).isSameAs(WherePredicate.parse("shift = 7"));
    }

    @Test
    void theSelectiveRangeHoldsEveryRowTheClauseMakesTrue() {
        // Seeded random clauses over two columns and random rows (numbers, strings, missing or
        // case-shadowed fields): whenever a clause is TRUE on a row, some field of the range's
        // column (ignoring case) holds a number within the range. Else an index scan would skip a
        // row the predicate read selects, and a phantom would go unseen.
        java.util.SplittableRandom random = new java.util.SplittableRandom(4_000_004L);
        int ranged = 0;
        int trueRows = 0;
        for (int c = 0; c < 3_000; c++) {
            String where = clause(random, 2);
            ParsedWhere parsed = WherePredicate.parse(where);
            if (!(parsed instanceof WherePredicate predicate)) {
                continue;
            }
            java.util.Optional<WherePredicate.ColumnRange> range = predicate.selectiveRange();
            if (range.isEmpty()) {
                continue;
            }
            ranged++;
            WherePredicate.ColumnRange r = range.get();
            for (int i = 0; i < 40; i++) {
                Value row = randomRow(random);
                if (!predicate.evaluate(row).isTrue()) {
                    continue;
                }
                trueRows++;
                boolean within = row.fields().entrySet().stream().anyMatch(f -> f.getKey().equalsIgnoreCase(r.column())
                        && f.getValue().isNumber() && f.getValue().asDecimal().orElseThrow().doubleValue() >= r.low()
                        && f.getValue().asDecimal().orElseThrow().doubleValue() <= r.high());
                assertThat(within).as("clause %s is TRUE on %s outside %s", where, row, r).isTrue();
            }
        }
        assertThat(ranged).as("clauses with a range").isGreaterThan(500);
        assertThat(trueRows).as("rows a ranged clause selects").isGreaterThan(1_000);
    }

    @Test
    void theSelectiveRangeIsComputedOnceAndShared() {
        WherePredicate p = (WherePredicate) WherePredicate.parse("v BETWEEN 5 AND 20 AND w < 3");
        assertThat(p.selectiveRange()).isSameAs(p.selectiveRange()).get()
                .extracting(WherePredicate.ColumnRange::column).isEqualTo("v");
    }

    private static String clause(java.util.SplittableRandom random, int depth) {
        if (depth > 0 && random.nextInt(3) == 0) {
            String op = random.nextBoolean() ? " AND " : " OR ";
            return "(" + clause(random, depth - 1) + op + clause(random, depth - 1) + ")";
        }
        String column = random.nextBoolean() ? "v" : (random.nextBoolean() ? "w" : "\"V\"");
        int a = random.nextInt(-5, 6);
        int b = a + random.nextInt(0, 5);
        return switch (random.nextInt(9)) {
            case 0 -> column + " > " + a;
            case 1 -> a + " <= " + column;
            case 2 -> column + " BETWEEN " + a + " AND " + b;
            case 3 -> column + " IN (" + a + ", " + b + ")";
            case 4 -> column + " <> " + a;
            case 5 -> "NOT (" + column + " < " + a + ")";
            case 6 -> column + " = " + a + ".5";
            case 7 -> column + " NOT BETWEEN " + a + " AND " + b;
            default -> column + " = 'x'";
        };
    }

    private static Value randomRow(java.util.SplittableRandom random) {
        Map<String, Object> fields = new HashMap<>();
        for (String name : List.of("v", "w", "V")) {
            switch (random.nextInt(name.equals("V") ? 6 : 5)) {
                case 0, 1, 2 -> fields.put(name, random.nextInt(-6, 8));
                case 3 -> fields.put(name, random.nextInt(-6, 8) + 0.5);
                case 4 -> fields.put(name, "x");
                default -> { }
            }
        }
        return Value.of(fields);
    }
}
