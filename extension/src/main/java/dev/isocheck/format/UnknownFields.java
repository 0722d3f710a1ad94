package dev.isocheck.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.isocheck.internal.text.Excerpt;
import dev.isocheck.internal.text.NearestName;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The fields of one history file that isocheck read without understanding, gathered into
 * warnings: one per distinct field and kind of object, at its first line, with the known field it
 * is nearest to ({@code "stauts"}: {@code "status"}) and how often it recurs, so that a field
 * misspelt on every line is one warning, not a hundred thousand.
 */
final class UnknownFields {

    /** Distinct unknown fields warned of by name at most; more are counted in one last warning. */
    static final int MAX_WARNINGS = 20;

    private final Path file;
    private final Map<Sighting, long[]> seen = new LinkedHashMap<>();
    private long unnamed;
    private long firstUnnamedLine;

    UnknownFields(Path file) {
        this.file = file;
    }

    /** A field and the kind of object it was found in. */
    private record Sighting(String field, JsonlObject kind) {
    }

    /** Notes every field of {@code object} (an object of this {@code kind}) that isocheck does not read. */
    void check(JsonNode object, JsonlObject kind, long line) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (kind.knows(field)) {
                continue;
            }
            Sighting sighting = new Sighting(field, kind);
            long[] firstLineAndCount = seen.get(sighting);
            if (firstLineAndCount != null) {
                firstLineAndCount[1]++;
            } else if (seen.size() < MAX_WARNINGS) {
                seen.put(sighting, new long[] {line, 1});
            } else if (unnamed++ == 0) {
                firstUnnamedLine = line;
            }
        }
    }

    /** Tells {@code warnings} of what was noted, in the order first seen. */
    void report(Consumer<String> warnings) {
        seen.forEach((sighting, firstLineAndCount) -> warnings.accept(file + ":" + firstLineAndCount[0] + ": "
                + describe(sighting) + again(firstLineAndCount[1] - 1)));
        if (unnamed > 0) {
            warnings.accept(file + ":" + firstUnnamedLine + ": " + String.format(Locale.ROOT, "%,d", unnamed)
                    + " more unknown fields from this line on, ignored (only the first " + MAX_WARNINGS
                    + " distinct ones are named)");
        }
    }

    private static String describe(Sighting s) {
        String quoted = Excerpt.of(s.field(), Excerpt.LIMIT, JsonlHistoryReader::quote);
        String text = "unknown field " + quoted + " in " + s.kind().description() + ", ignored";
        Optional<String> near = NearestName.of(s.field(), s.kind().fields());
        if (near.isPresent()) {
            return text + "; did you mean " + JsonlHistoryReader.quote(near.get()) + "?";
        }
        for (JsonlObject other : JsonlObject.values()) {
            if (other.knows(s.field())) {
                return text + " (" + quoted + " is a field of " + other.description() + ")";
            }
        }
        return text;
    }

    private static String again(long more) {
        return more == 0 ? "" : String.format(Locale.ROOT, " (and %,d more %s)", more, more == 1 ? "time" : "times");
    }
}
