package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.History;
import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/** Reads one history from a file or directory in one format. */
@API(status = EXPERIMENTAL, since = "0.1")
public interface HistoryReader {

    /**
     * Reads the history at {@code path}.
     *
     * @throws HistoryFormatException when the content is malformed; never a partial history
     * @throws IOException            when the file cannot be read at all
     */
    History read(Path path) throws HistoryFormatException, IOException;

    /**
     * Reads the history at {@code path} as {@link #read(Path)} does, telling {@code warnings} of
     * what it read without understanding, where the format allows that (a field it does not know,
     * which may be a misspelling): each warning a sentence naming the file and the line or byte.
     * A reader that has nothing to warn of reads as {@link #read(Path)}.
     *
     * @throws HistoryFormatException when the content is malformed; never a partial history
     * @throws IOException            when the file cannot be read at all
     */
    default History read(Path path, java.util.function.Consumer<String> warnings) throws HistoryFormatException, IOException {
        return read(path);
    }

    /** The reader for a format. */
    static HistoryReader of(HistoryFormat format) {
        return switch (format) {
            case JSONL -> new JsonlHistoryReader();
            case DBCOP -> new DbcopHistoryReader();
            case COBRA -> new CobraHistoryReader(CobraHistoryReader.Values.AS_LOGGED);
            case COBRA_UNIQUE -> new CobraHistoryReader(CobraHistoryReader.Values.UNIQUE);
            case COBRA_DUPLICATES -> new CobraHistoryReader(CobraHistoryReader.Values.DUPLICATE);
        };
    }
}
