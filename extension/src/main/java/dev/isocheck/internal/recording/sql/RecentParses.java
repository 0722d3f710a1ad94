package dev.isocheck.internal.recording.sql;

import dev.isocheck.internal.limit.SqlParsing;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.statement.Statement;

/**
 * The parse trees of the last few texts parsed: a statement is analysed (its kind, the functions
 * it calls, what it reads inside itself) by several questions in a row as it is sent, and each
 * would otherwise parse it again. Few are kept, since a tree is large and the answers are cached
 * by text elsewhere; a failure is kept too, so that a text that does not parse is tried once.
 */
final class RecentParses {

    private static final int KEPT = 32;

    /** A text's statements, or why it did not parse. */
    private record Parse(List<Statement> statements, JSQLParserException failure) {
    }

    private static final Map<String, Parse> RECENT = new LinkedHashMap<>(KEPT * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Parse> eldest) {
            return size() > KEPT;
        }
    };

    private RecentParses() {
    }

    /**
     * The statements of {@code sql}, parsed within {@link SqlParsing#BOUND}; the trees are shared:
     * read them, never change them.
     *
     * @throws JSQLParserException when it is not SQL the parser reads, or took too long to parse
     */
    static List<Statement> statements(String sql) throws JSQLParserException {
        Parse parse;
        synchronized (RECENT) {
            parse = RECENT.get(sql);
        }
        if (parse == null) {
            try {
                parse = new Parse(List.copyOf(SqlParsing.statements(sql).getStatements()), null);
            } catch (JSQLParserException e) {
                parse = new Parse(null, e);
            }
            synchronized (RECENT) {
                RECENT.put(sql, parse);
            }
        }
        if (parse.failure() != null) {
            throw parse.failure();
        }
        return parse.statements();
    }
}
