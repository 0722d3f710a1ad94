package dev.isocheck.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.isocheck.internal.text.Excerpt;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is wrong with a line that is not JSON, in the format's terms: Jackson's own messages name
 * its settings ({@code enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow},
 * {@code from `StreamReadConstraints.getMaxNestingDepth()`}), which a user of the {@code check}
 * command can neither see nor change, so that advice is left out and its limits are said as the
 * format's ({@code docs/history-format.md}). Whatever of the input a message quotes is bounded
 * ({@link Excerpt}).
 */
final class JsonProblem {

    /** The longest problem text kept from Jackson; it quotes tokens of the input. */
    private static final int LIMIT = 300;

    private static final Pattern CONSTRAINT = Pattern.compile(
            "(Document nesting depth|Number value length|String value length|Name length) \\((\\d+)\\) exceeds the maximum"
                    + " allowed \\((\\d+).*", Pattern.DOTALL);
    private static final Pattern NON_NUMERIC = Pattern.compile("Non-standard token '([^']*)'.*", Pattern.DOTALL);
    private static final Pattern BIG_NUMBER = Pattern.compile("Value \"(.*)\" can not be deserialized as .*", Pattern.DOTALL);

    private JsonProblem() {
    }

    /** A line's JSON that Jackson refused, as {@code "bad JSON at column 12: …"}. */
    static String of(JsonProcessingException e) {
        String where = e.getLocation() == null || e.getLocation().getColumnNr() < 1
                ? "" : " at column " + e.getLocation().getColumnNr();
        return "bad JSON" + where + ": " + describe(e);
    }

    /** A number (or other value) Jackson refused unchecked: {@code 1e2147483648} is a {@link NumberFormatException}. */
    static String of(RuntimeException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        Matcher number = BIG_NUMBER.matcher(message);
        if (number.matches()) {
            return "bad JSON: the number " + Excerpt.of(number.group(1)) + " is out of range";
        }
        if (e instanceof NumberFormatException) {
            return "bad JSON: a number out of range";
        }
        return "bad JSON: " + bound(stripAdvice(message.isBlank() ? e.getClass().getSimpleName() : message));
    }

    private static String describe(JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (e instanceof StreamConstraintsException) {
            Matcher limit = CONSTRAINT.matcher(message);
            if (limit.matches()) {
                long found = Long.parseLong(limit.group(2));
                long most = Long.parseLong(limit.group(3));
                return switch (limit.group(1)) {
                    case "Document nesting depth" -> "arrays and objects nested more than " + count(most) + " deep";
                    case "Number value length" -> "a number of " + count(found) + " characters, more than the "
                            + count(most) + " a number may have";
                    case "String value length" -> "a string of " + count(found) + " characters or more, more than the "
                            + count(most) + " a string may have";
                    default -> "a field name of " + count(found) + " characters, more than the " + count(most)
                            + " a field name may have";
                };
            }
        }
        Matcher nonNumeric = NON_NUMERIC.matcher(message);
        if (nonNumeric.matches()) {
            return Excerpt.of(nonNumeric.group(1)) + " is not a JSON number (JSON has no NaN or infinity; write such a"
                    + " value as a string)";
        }
        if (message.startsWith("Trailing token")) {
            return "more than one JSON value on the line (a line holds one object)";
        }
        if (message.contains("maybe a (non-standard) comment?")) {
            return "unexpected '/': JSON has no comments (a comment is a line of its own, starting with //)";
        }
        return bound(stripAdvice(message));
    }

    /** Jackson's message without the settings it names and with its source excerpts reduced to columns. */
    private static String stripAdvice(String message) {
        return message
                .replaceAll(": enable `[^`]*` to allow", "")
                .replaceAll(" \\(bound as `[^`]*`\\)", "")
                .replaceAll(":? not allowed as per `[^`]*`", "")
                .replaceAll(",? from `[^`]*`", "")
                .replaceAll(" \\(for root starting at \\[Source: [^\\]]*\\]\\)", "")
                .replaceAll("\\[Source: [^\\]]*?; line: \\d+, column: (\\d+)\\]", "column $1")
                .replaceAll("\\[Source: [^\\]]*\\]", "the line")
                .replace("JSON spec does not allow", "JSON does not allow")
                .replaceAll("\\s*[\\r\\n]+\\s*", " ")
                .strip();
    }

    private static String bound(String text) {
        return Excerpt.of(text, LIMIT, s -> s);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
