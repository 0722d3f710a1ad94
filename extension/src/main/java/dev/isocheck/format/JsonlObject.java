package dev.isocheck.format;

import java.util.List;

/**
 * The kinds of JSON object a history line holds, each with the fields isocheck reads in it
 * ({@code docs/history-format.md}). Any other field is allowed, so that the format can grow, and
 * warned of, since a misspelt field ({@code "stauts": "aborted"}) is otherwise ignored without a
 * word and can flip a verdict.
 */
enum JsonlObject {
    INIT("the initial state", "init", "complete", "unknown"),
    TRANSACTION("a transaction", "id", "session", "status", "start", "end", "thread", "statements", "ops"),
    STATEMENT("a statement", "sql", "parameters", "name"),
    READ("a read", "op", "key", "value", "statement"),
    WRITE("a write", "op", "key", "value", "statement"),
    PREDICATE("a predicate read", "op", "table", "where", "rows", "statement"),
    ROW("a row of a predicate read", "key", "value");

    private final String description;
    private final List<String> fields;

    JsonlObject(String description, String... fields) {
        this.description = description;
        this.fields = List.of(fields);
    }

    /** The kind in words, with its article: {@code "a transaction"}. */
    String description() {
        return description;
    }

    /** The fields isocheck reads in this kind of object, most important first (ties in suggestions go to the first). */
    List<String> fields() {
        return fields;
    }

    /** Whether isocheck reads {@code field} in this kind of object. */
    boolean knows(String field) {
        return fields.contains(field);
    }
}
