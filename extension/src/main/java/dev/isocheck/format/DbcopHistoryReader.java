package dev.isocheck.format;

import dev.isocheck.history.History;
import java.nio.file.Path;

/** PLACEHOLDER while the formats are written; replaced before landing. */
public final class DbcopHistoryReader implements HistoryReader {
    @Override
    public History read(Path path) {
        throw new UnsupportedOperationException("not written yet");
    }
}
