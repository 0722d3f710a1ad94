package dev.isocheck.format;

import dev.isocheck.history.History;
import java.nio.file.Path;

/** PLACEHOLDER while the formats are written; replaced before landing. */
public final class CobraHistoryReader implements HistoryReader {
    /** How values are identified. */
    public enum Values { UNIQUE, DUPLICATE }

    public CobraHistoryReader(Values values) {
    }

    @Override
    public History read(Path path) {
        throw new UnsupportedOperationException("not written yet");
    }
}
