package dev.isocheck.internal.recording.sql;

/**
 * Finds where a SELECT's projection ends in the application's own text: the {@code FROM} keyword
 * at the top level, outside strings, quoted names, comments and parentheses. Anything it does not
 * read with certainty (dollar quotes, backslash-escaped strings, backquotes, brackets) makes it
 * give up, and the statement is then sent unchanged.
 */
final class ProjectionEnd {

    private ProjectionEnd() {
    }

    /** The index of the top-level FROM of {@code sql}, which must start with SELECT; -1 when not found with certainty. */
    static int find(String sql) {
        int depth = 0;
        boolean sawSelect = false;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int close = sql.indexOf(c, i + 1);
                while (close >= 0 && close + 1 < n && sql.charAt(close + 1) == c) {
                    close = sql.indexOf(c, close + 2);
                }
                if (close < 0) {
                    return -1;
                }
                i = close + 1;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                if (end < 0) {
                    return -1;
                }
                i = end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0 || sql.substring(i + 2, end).contains("/*")) {
                    // Nested comments are read differently by different databases.
                    return -1;
                }
                i = end + 2;
            } else if (c == '$' || c == '`' || c == '[' || c == '\\' || c == ';') {
                return -1;
            } else if (c == '(') {
                depth++;
                i++;
            } else if (c == ')') {
                depth--;
                if (depth < 0) {
                    return -1;
                }
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                String word = sql.substring(start, i);
                if (!sawSelect) {
                    if (!word.equalsIgnoreCase("SELECT")) {
                        return -1;
                    }
                    sawSelect = true;
                } else if (depth == 0 && word.equalsIgnoreCase("FROM")) {
                    return start;
                } else if (i < n && sql.charAt(i) == '\'' && (word.equalsIgnoreCase("E") || word.equalsIgnoreCase("U&")
                        || word.equalsIgnoreCase("X") || word.equalsIgnoreCase("B"))) {
                    // E'..' strings escape quotes with backslashes.
                    return -1;
                }
            } else {
                i++;
            }
        }
        return -1;
    }
}
