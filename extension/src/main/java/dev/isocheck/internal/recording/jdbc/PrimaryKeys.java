package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.PrimaryKeyLookup;
import dev.isocheck.internal.recording.sql.Dialect;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the recorder knows of the tables of one database: primary keys, from
 * {@link DatabaseMetaData#getPrimaryKeys}, and what a write to a table changes beyond it (cascading
 * foreign keys, triggers, views), cached per table. Looked up only while a connection is between
 * transactions: metadata queries are statements, and one sent inside the application's
 * transaction could start its snapshot early or fail in an aborted transaction.
 *
 * <p>Table names in the history are lower case without a schema, so that {@code Doctors},
 * {@code doctors} and {@code public.doctors} are one table (a table seen under two names could show
 * two "initial" values). When two objects of the database answer to one such name (two schemas,
 * or quoted names differing in case), the name is keyless: its reads are not recorded and its
 * writes leave it, and every table, out.
 */
final class PrimaryKeys implements PrimaryKeyLookup {

    private static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "pg_catalog");

    private final Map<String, Optional<List<String>>> cache = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> sideEffects = new ConcurrentHashMap<>();
    /** The tables whose rows an UPDATE or DELETE names are logged as such ({@link #logsItsOwnRows}). */
    private final Set<String> ownRowsLogged = ConcurrentHashMap.newKeySet();
    /** The tables with a primary key column the database computes ({@link #keyComputed}). */
    private final Set<String> keysComputed = ConcurrentHashMap.newKeySet();
    /** The columns of each table the database computes ({@link #computedColumns}). */
    private final Map<String, Set<String>> computed = new ConcurrentHashMap<>();
    /** The tables whose primary key is one column the database numbers itself ({@link #autoIncrementKey}). */
    private final Map<String, String> autoIncrementKeys = new ConcurrentHashMap<>();
    private final Map<String, Optional<TableColumns>> columns = new ConcurrentHashMap<>();
    /** The recording each table was last looked up for (weakly: a finished test's history is not kept). */
    private final Map<String, java.lang.ref.WeakReference<Object>> lookedUpForRefs = new ConcurrentHashMap<>();

    /** The recording {@code table} was last looked up for, or null. */
    private Object lookedUpFor(String table) {
        java.lang.ref.WeakReference<Object> ref = lookedUpForRefs.get(table);
        return ref == null ? null : ref.get();
    }

    /** Each table's name as the database spells it, with its schema or database: {schema or catalog, name}. */
    private final Map<String, String[]> spelled = new ConcurrentHashMap<>();

    /**
     * The table as an identifier in {@code dialect}'s SQL, qualified and quoted as the database
     * spells it (table names are case-sensitive on MySQL), when looked up.
     */
    Optional<String> qualifiedName(String table, Dialect dialect) {
        String[] name = spelled.get(table);
        return name == null ? Optional.empty()
                : Optional.of((name[0] == null ? "" : dialect.quote(name[0]) + ".") + dialect.quote(name[1]));
    }

    /** The table's key and columns, when looked up and the table has a key; empty otherwise. */
    Optional<TableColumns> columnsOf(String table) {
        Optional<TableColumns> found = columns.get(table);
        return found == null ? Optional.empty() : found;
    }

    @Override
    public Optional<List<String>> keyOf(String table) {
        Optional<List<String>> key = cache.get(table);
        return key == null ? Optional.empty() : key;
    }

    /**
     * Every table a write to {@code table} may change unseen, through cascades of cascades: a
     * table whose own effects were not looked up is assumed to change any.
     */
    @Override
    public Map<String, String> changedAlongWith(String table) {
        Map<String, String> all = new TreeMap<>();
        java.util.Deque<String> next = new java.util.ArrayDeque<>(List.of(table));
        java.util.Set<String> seen = new java.util.HashSet<>(next);
        while (!next.isEmpty()) {
            Map<String, String> effects = sideEffects.get(next.poll());
            if (effects == null) {
                // Not looked up yet (the connection broke first): assume the worst.
                all.put("*", "the table's triggers and cascading foreign keys could not be looked up");
                return all;
            }
            effects.forEach((other, why) -> {
                all.putIfAbsent(other, why);
                if (!other.equals("*") && seen.add(other)) {
                    next.add(other);
                }
            });
        }
        return all;
    }

    /**
     * Whether a primary key column of {@code table} is one the database computes (a generated
     * column), or whether that could not be told: an UPDATE that sets none of the key's columns may
     * then still move a row to another key. False for a table not looked up (it has no key known).
     */
    @Override
    public boolean keyComputed(String table) {
        return keysComputed.contains(table);
    }

    /**
     * The columns of {@code table} the database computes (generated columns), lower case, as last
     * looked up; {@code "*"} among them where the driver does not say; empty when the table has
     * not been looked up with a primary key.
     */
    Optional<Set<String>> computedColumns(String table) {
        return Optional.ofNullable(computed.get(table));
    }

    /**
     * The one column of {@code table}'s primary key when the database numbers it itself
     * ({@code AUTO_INCREMENT}, an identity), as last looked up; empty otherwise.
     */
    Optional<String> autoIncrementKey(String table) {
        return Optional.ofNullable(autoIncrementKeys.get(table));
    }

    /** The database's dialect, once a look-up has said it. */
    private volatile Dialect dialect;

    @Override
    public boolean hidesRows(String table) {
        Optional<TableColumns> known = columnsOf(table);
        return known.isPresent() ? known.get().rowSecurity() : dialect == Dialect.POSTGRESQL;
    }

    /**
     * Whether {@code table} is known (looked up, in this test or before) to have triggers, rules or
     * anything else that may write any table: its writes leave every table out anyway, and a
     * rewritten form could fail where the statement would not (a rule's {@code DO INSTEAD} refuses
     * {@code RETURNING}).
     */
    boolean writesAnywhere(String table) {
        Map<String, String> effects = sideEffects.get(table);
        return effects != null && effects.containsKey("*");
    }

    /**
     * Whether a row an UPDATE or DELETE of {@code table} names and changes is, in PostgreSQL's
     * own log, that row of {@code table} under its primary key (or, when a trigger changed its key,
     * that row leaving it): the table was looked up in this test, is a base or partitioned table
     * (a partition's rows are logged under its root), has no rules, on it or its partitions (a
     * rule may change other rows than the statement names, and the count is then the rule's), no
     * inheritance children (whose rows the log names by the child), and logs the old key of a row
     * it updates (replica identity default or full, its partitions' too).
     */
    boolean logsItsOwnRows(String table) {
        return knows(table) && ownRowsLogged.contains(table);
    }

    /**
     * Whether {@code table} was looked up (found or not) during {@code recording}: what a write
     * to it changes besides (triggers, cascades) is looked up again for each test, since a test
     * may change the schema.
     */
    boolean knows(String table) {
        return knowsFor(currentRecording()).test(table);
    }

    /** {@link #knows} for the recording given, asked once for a whole transaction's tables. */
    java.util.function.Predicate<String> knowsFor(Object recording) {
        return table -> cache.containsKey(table) && lookedUpFor(table) == recording;
    }

    private static Object currentRecording() {
        return dev.isocheck.internal.recording.Recording.current().orElse(null);
    }

    /**
     * Looks up the tables not cached yet on {@code connection}. A failure caches nothing (the
     * connection may be broken; the next transaction tries again).
     */
    void lookUp(Connection connection, Dialect dialect, Collection<String> tables) {
        this.dialect = dialect;
        java.util.Deque<String> queue = new java.util.ArrayDeque<>(tables);
        java.util.Set<String> queued = new java.util.HashSet<>(tables);
        Object recording = currentRecording();
        List<String[]> objects = null;
        while (!queue.isEmpty()) {
            String table = queue.poll();
            // One connection looks a table up per test; another meeting it at the same moment waits
            // for that look-up rather than sending the same queries.
            String claim = table + '\u0000' + System.identityHashCode(recording);
            if (knows(table)) {
                continue;
            }
            java.util.concurrent.CompletableFuture<Void> mine = new java.util.concurrent.CompletableFuture<>();
            java.util.concurrent.CompletableFuture<Void> other = inFlight.putIfAbsent(claim, mine);
            if (other != null) {
                try {
                    other.get(LOOK_UP_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // Its look-up failed or hangs: this transaction goes on with what is known.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                continue;
            }
            try {
                DatabaseMetaData metaData = connection.getMetaData();
                if (objects == null) {
                    objects = objects(metaData, databaseOf(connection, dialect));
                }
                lookUpOne(connection, dialect, metaData, objects, table, recording).stream()
                        .filter(queued::add).forEach(queue::add);
            } catch (SQLException | RuntimeException e) {
                return;
            } finally {
                inFlight.remove(claim);
                mine.complete(null);
            }
        }
    }

    /** How long a connection waits for another's look-up of the same table. */
    private static final long LOOK_UP_WAIT_SECONDS = 10;

    /** The look-ups in progress, by table and the test they are for. */
    private final Map<String, java.util.concurrent.CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();

    /**
     * Looks up one table for {@code recording}; returns the tables its cascades change, which are
     * looked up too (their own cascades and triggers count).
     */
    private List<String> lookUpOne(Connection connection, Dialect dialect, DatabaseMetaData metaData, List<String[]> objects,
                                   String table, Object recording) throws SQLException {
        List<String[]> named = objects.stream().filter(o -> o[1].equalsIgnoreCase(table)).toList();
        if (named.size() != 1) {
            sideEffects.put(table, Map.of("*", named.isEmpty()
                    ? "a write to something the database does not list as a table may change any table"
                    : "several tables answer to this name: which one a statement writes is not known"));
            cache.put(table, Optional.empty());
            lookedUpForRefs.put(table, new java.lang.ref.WeakReference<>(recording));
            return List.of();
        }
        String schema = named.get(0)[0];
        String name = named.get(0)[1];
        String type = named.get(0)[2];
        // Where the catalog names the table (MySQL, MariaDB), the metadata is asked by it alone.
        String catalog = named.get(0)[3];
        String metaSchema = catalog == null ? schema : null;
        spelled.put(table, new String[] {schema, name});
        Map<String, String> effects = new TreeMap<>(cascades(metaData, catalog, metaSchema, name));
        boolean baseTable = type.equals("TABLE") || type.equals("BASE TABLE") || type.equals("PARTITIONED TABLE");
        TableTree tree = baseTable ? TableTree.of(connection, dialect, schema, name) : null;
        if (!baseTable) {
            effects.put("*", "a write through a view, or to something that is not a single base table,"
                    + " changes rows of tables it does not name");
        } else if (tree.mayWriteAnywhere()) {
            effects.put("*", "the table has triggers or rules (its partitions' and children's too), which may write any table unseen");
        }
        Optional<List<String>> key = find(metaData, catalog, metaSchema, name);
        if (key.isPresent()) {
            Set<String> generated = new java.util.HashSet<>();
            Set<String> numbered = new java.util.HashSet<>();
            Map<String, TableColumns.Column> all = columns(connection, dialect, metaData, catalog, metaSchema, name, generated, numbered);
            // Each fact replaced in one step, never removed first: another connection asking
            // meanwhile (the first statements of a test, on many threads) gets the old answer or
            // the new one, not none.
            if (key.get().stream().anyMatch(column -> generated.contains(column) || generated.contains("*"))) {
                keysComputed.add(table);
            } else {
                keysComputed.remove(table);
            }
            computed.put(table, Set.copyOf(generated));
            if (key.get().size() == 1 && numbered.contains(key.get().get(0))) {
                autoIncrementKeys.put(table, key.get().get(0));
            } else {
                autoIncrementKeys.remove(table);
            }
            Set<String> unreadable = unreadable(connection, dialect, schema, name);
            Map<String, TableColumns.Column> readable = new java.util.LinkedHashMap<>(all);
            readable.keySet().removeAll(unreadable);
            columns.put(table, Optional.of(new TableColumns(key.get(), Map.copyOf(readable), unreadable.isEmpty(),
                    rowSecurity(connection, dialect, schema, name))));
        } else {
            keysComputed.remove(table);
            autoIncrementKeys.remove(table);
            computed.remove(table);
            columns.put(table, Optional.empty());
        }
        if (baseTable && tree.logsOwnRows()) {
            ownRowsLogged.add(table);
        } else {
            ownRowsLogged.remove(table);
        }
        cache.put(table, key);
        sideEffects.put(table, Map.copyOf(effects));
        lookedUpForRefs.put(table, new java.lang.ref.WeakReference<>(recording));
        return effects.keySet().stream().filter(t -> !t.equals("*")).toList();
    }

    /**
     * The database the connection works in, on MySQL and MariaDB, whose JDBC catalogs are its
     * databases: the look-ups stay in it, where its statements' unqualified tables are (another
     * database's table of the same name is not theirs). {@code null} elsewhere: every schema.
     */
    private static String databaseOf(Connection connection, Dialect dialect) throws SQLException {
        return dialect.isMysql() ? connection.getCatalog() : null;
    }

    /**
     * Every table-like object outside the system schemas, of {@code catalog} when not null:
     * {schema, name, type, catalog}. On MySQL and MariaDB the catalog stands where the schema
     * does elsewhere, and is what names the table to the other look-ups.
     */
    private static List<String[]> objects(DatabaseMetaData metaData, String catalog) throws SQLException {
        List<String[]> objects = new ArrayList<>();
        try (ResultSet rs = metaData.getTables(catalog, null, "%", null)) {
            while (rs.next()) {
                String schema = rs.getString("TABLE_SCHEM");
                if (schema != null && SYSTEM_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT))) {
                    continue;
                }
                if (catalog != null && !catalog.equals(rs.getString("TABLE_CAT"))) {
                    continue;
                }
                objects.add(new String[] {catalog != null ? catalog : schema, rs.getString("TABLE_NAME"),
                        String.valueOf(rs.getString("TABLE_TYPE")).toUpperCase(Locale.ROOT), catalog});
            }
        }
        return objects;
    }

    /**
     * The child tables of the table's foreign keys whose rows a write to it changes: ON DELETE or
     * ON UPDATE CASCADE, SET NULL or SET DEFAULT.
     */
    private static Map<String, String> cascades(DatabaseMetaData metaData, String catalog, String schema, String table)
            throws SQLException {
        Map<String, String> children = new TreeMap<>();
        try (ResultSet keys = metaData.getExportedKeys(catalog, schema, table)) {
            while (keys.next()) {
                if (changesChildren(keys.getShort("UPDATE_RULE")) || changesChildren(keys.getShort("DELETE_RULE"))) {
                    children.put(keys.getString("FKTABLE_NAME").toLowerCase(Locale.ROOT),
                            "a cascading foreign key from " + table.toLowerCase(Locale.ROOT) + " changes its rows unseen");
                }
            }
        }
        return children;
    }

    private static boolean changesChildren(short rule) {
        return rule == DatabaseMetaData.importedKeyCascade || rule == DatabaseMetaData.importedKeySetNull
                || rule == DatabaseMetaData.importedKeySetDefault;
    }

    /**
     * What the table and every table under it (partitions, inheritance children) do to a write of
     * it, from one look at the catalog.
     *
     * @param mayWriteAnywhere whether a write to it may run code that writes elsewhere: its
     *                         triggers (on PostgreSQL, a trigger on any of its partitions or
     *                         inheritance children too, since a write through it reaches them,
     *                         and its rules)
     * @param logsOwnRows      on PostgreSQL, whether the log shows a row an UPDATE or DELETE of it
     *                         names as that row ({@link #logsItsOwnRows}): no inheritance children,
     *                         no rules, the old key logged; elsewhere {@code false} (no log)
     */
    private record TableTree(boolean mayWriteAnywhere, boolean logsOwnRows) {

        static TableTree of(Connection connection, Dialect dialect, String schema, String table) throws SQLException {
            if (dialect != Dialect.POSTGRESQL) {
                return new TableTree(hasStandardTriggers(connection, schema, table), false);
            }
            try (var statement = connection.prepareStatement("WITH RECURSIVE tree(oid, root) AS ("
                    + " SELECT c.oid, true FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE c.relname = ? AND n.nspname = ?"
                    + " UNION SELECT i.inhrelid, false FROM pg_catalog.pg_inherits i JOIN tree ON i.inhparent = tree.oid)"
                    + " SELECT (SELECT count(*) FROM pg_catalog.pg_trigger t WHERE t.tgrelid IN (SELECT oid FROM tree)"
                    + " AND NOT t.tgisinternal),"
                    + " (SELECT count(*) FROM pg_catalog.pg_rewrite r WHERE r.ev_class IN (SELECT oid FROM tree)"
                    + " AND r.rulename <> '_RETURN'),"
                    + " (SELECT bool_and(c.relreplident IN ('d', 'f') AND (tree.root OR c.relispartition))"
                    + " FROM tree JOIN pg_catalog.pg_class c ON c.oid = tree.oid)")) {
                statement.setString(1, table);
                statement.setString(2, schema);
                try (ResultSet rs = statement.executeQuery()) {
                    if (!rs.next()) {
                        return new TableTree(true, false);
                    }
                    long triggers = rs.getLong(1);
                    long rules = rs.getLong(2);
                    return new TableTree(triggers + rules > 0, rules == 0 && rs.getBoolean(3));
                }
            }
        }
    }

    /** Whether the table has triggers, from the standard information schema (H2, HSQLDB). */
    private static boolean hasStandardTriggers(Connection connection, String schema, String table) throws SQLException {
        try (var statement = connection.prepareStatement("SELECT COUNT(*) FROM information_schema.triggers"
                + " WHERE event_object_table = ? AND (event_object_schema = ? OR ? IS NULL)")) {
            statement.setString(1, table);
            statement.setString(2, schema);
            statement.setString(3, schema);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    /**
     * The columns (lower case) of the table the connection's role may not read: on PostgreSQL,
     * those without the SELECT privilege (table or column grants); elsewhere none known.
     */
    private static Set<String> unreadable(Connection connection, Dialect dialect, String schema, String table) throws SQLException {
        if (dialect.isMysql()) {
            return unreadableOnMysql(connection, schema, table);
        }
        if (dialect != Dialect.POSTGRESQL) {
            return Set.of();
        }
        Set<String> found = new java.util.HashSet<>();
        try (var statement = connection.prepareStatement("SELECT a.attname FROM pg_catalog.pg_attribute a"
                + " JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE c.relname = ? AND n.nspname = ? AND a.attnum > 0 AND NOT a.attisdropped"
                + " AND NOT pg_catalog.has_column_privilege(a.attrelid, a.attnum, 'SELECT')")) {
            statement.setString(1, table);
            statement.setString(2, schema);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return found;
    }

    /**
     * On MySQL and MariaDB, the columns (lower case) the connection's user may not read: the
     * information schema lists, for each column, the privileges the current user holds on it
     * (granted on the column, the table, the database or globally). {@code RETURNING} and a read
     * back need them, where the write alone would not.
     */
    private static Set<String> unreadableOnMysql(Connection connection, String database, String table) throws SQLException {
        Set<String> found = new java.util.HashSet<>();
        try (var statement = connection.prepareStatement("SELECT COLUMN_NAME FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND FIND_IN_SET('select', PRIVILEGES) = 0")) {
            statement.setString(1, database);
            statement.setString(2, table);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return found;
    }

    /** Whether PostgreSQL's row-level security is enabled on the table (whoever it applies to). */
    private static boolean rowSecurity(Connection connection, Dialect dialect, String schema, String table) throws SQLException {
        if (dialect != Dialect.POSTGRESQL) {
            return false;
        }
        try (var statement = connection.prepareStatement("SELECT c.relrowsecurity FROM pg_catalog.pg_class c"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = ? AND n.nspname = ?")) {
            statement.setString(1, table);
            statement.setString(2, schema);
            try (ResultSet rs = statement.executeQuery()) {
                return !rs.next() || rs.getBoolean(1);
            }
        }
    }

    /**
     * The table's columns by lower-case name; none when two fold to one name.
     *
     * @param generated filled with the lower-case names of the columns the database computes
     *                  ({@code IS_GENERATEDCOLUMN}), or {@code "*"} where the driver does not say
     * @param numbered  filled with the lower-case names of the columns the database numbers
     *                  ({@code IS_AUTOINCREMENT}), where the driver says
     */
    private static Map<String, TableColumns.Column> columns(Connection connection, Dialect dialect, DatabaseMetaData metaData,
                                                            String catalog, String schema, String table, Set<String> generated,
                                                            Set<String> numbered)
            throws SQLException {
        Map<String, TableColumns.Column> found = new java.util.LinkedHashMap<>();
        Map<String, String> typeNames = new java.util.HashMap<>();
        Set<String> twice = new java.util.HashSet<>();
        try (ResultSet rs = metaData.getColumns(catalog, schema, table, null)) {
            while (rs.next()) {
                // The arguments are patterns, in which _ matches any character: keep this table's only.
                if (!table.equals(rs.getString("TABLE_NAME")) || schema != null && !schema.equals(rs.getString("TABLE_SCHEM"))) {
                    continue;
                }
                String name = rs.getString("COLUMN_NAME");
                String lower = name.toLowerCase(Locale.ROOT);
                int type = rs.getInt("DATA_TYPE");
                if (dialect.isMysql() && TableColumns.isBoolean(type)) {
                    // MySQL's BOOLEAN is TINYINT(1), which may hold 2: read as true, yet not = TRUE.
                    type = java.sql.Types.OTHER;
                }
                String typeName = String.valueOf(rs.getString("TYPE_NAME")).toLowerCase(Locale.ROOT);
                if (dialect.isMysql() && (typeName.startsWith("enum") || typeName.startsWith("set"))) {
                    // MariaDB's driver calls ENUM and SET VARCHAR, but they store another value than
                    // the string written ('A' as 'a', '2' as the second member, 'y,x' as 'x,y').
                    type = java.sql.Types.OTHER;
                }
                if (found.put(lower, new TableColumns.Column(name, type, false,
                        rs.getInt("NULLABLE") == java.sql.DatabaseMetaData.columnNoNulls)) != null) {
                    twice.add(lower);
                }
                typeNames.put(lower, rs.getString("TYPE_NAME"));
                try {
                    if (!"NO".equals(rs.getString("IS_GENERATEDCOLUMN"))) {
                        generated.add(lower);
                    }
                } catch (SQLException notSaid) {
                    generated.add("*");
                }
                try {
                    if ("YES".equals(rs.getString("IS_AUTOINCREMENT"))) {
                        numbered.add(lower);
                    }
                } catch (SQLException notSaid) {
                    // Not said: the column is not taken to be numbered by the database.
                }
            }
        }
        Set<String> exactText = TextCollations.exact(dialect, connection, schema, table, typeNames);
        found.replaceAll((lower, column) -> exactText.contains(lower)
                ? new TableColumns.Column(column.name(), column.type(), true, column.notNull()) : column);
        // Two columns one name folds to: which is which is not known, and a row without one of them
        // would be partial; nothing is added or asked for on such a table.
        return twice.isEmpty() ? Map.copyOf(found) : Map.of();
    }

    private static Optional<List<String>> find(DatabaseMetaData metaData, String catalog, String schema, String table)
            throws SQLException {
        TreeMap<Short, String> columns = new TreeMap<>();
        try (ResultSet keys = metaData.getPrimaryKeys(catalog, schema, table)) {
            while (keys.next()) {
                columns.put(keys.getShort("KEY_SEQ"), keys.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return columns.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(columns.values()));
    }
}
