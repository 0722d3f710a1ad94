package dev.isocheck.internal.recording;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The database's own account of the rows a test's transactions wrote, read when the test is
 * checked: on PostgreSQL, a logical replication slot created before the test's first transaction;
 * on MariaDB, the binary log from where it stood then.
 * Where a recording has one for a database, that database's writes in the history come from it
 * and not from the application's statements, which are then sent exactly as written.
 */
public interface WriteLog {

    /** How the writes were recorded, in a developer's words, for reports: which slot, which plugin. */
    String describe();

    /**
     * Reads every transaction committed since the log was opened, in commit order, and closes the
     * log (a replication slot is dropped). Called once, when the recording finishes.
     *
     * @throws Exception when the account cannot be read: every table is then left out
     */
    Account read() throws Exception;

    /**
     * Reads every transaction committed since the log was opened, in commit order, as
     * {@link #read()} does, and leaves the log open: what a test has written so far.
     *
     * @throws Exception when the account cannot be read
     */
    Account peek() throws Exception;

    /**
     * Reads every transaction committed since the last drain (or since the log was opened), in
     * commit order, and leaves the log open without them: the next drain starts after them. A
     * test checked in rounds drains its log once a round, so that the log, like the recorder,
     * holds only what came since.
     *
     * @throws Exception when the account cannot be read: every table is then left out from here on
     */
    Account drain() throws Exception;

    /**
     * The id a transaction of the log has when its connection asked the server {@code asked}:
     * PostgreSQL's 64-bit transaction id as the log's 32 bits.
     */
    default long idOf(long asked) {
        return asked & 0xFFFF_FFFFL;
    }

    /**
     * Notes that the application changed a setting of one of its sessions that decides how it
     * reads values the log renders on a connection of the recorder's own (MariaDB's
     * {@code time_zone}, which TIMESTAMP values are read in): what depends on it is left out.
     */
    default void sessionChanged(String setting) {
    }

    /**
     * Notes that the application did what the log does not show in {@code table}'s rows (made a
     * temporary table of its name, named it in another database): it is left out of the account.
     * {@code "*"} stands for every table.
     */
    default void leaveOut(String table, String why) {
    }

    /**
     * Notes that a connection of the application moved to {@code database} ({@code setCatalog},
     * {@code USE}): where the log keeps one database's rows, and that is another, what the
     * connection does there is not in the account.
     */
    default void databaseUsed(String database) {
    }

    /**
     * Notes a table the application named with a database or schema ({@code db.t}): where the log
     * keeps one database's rows and {@code database} is another, that table's rows are not in the
     * account, though the history names them alike.
     */
    default void tableNamedIn(String database, String table) {
    }

    /** Closes the log without reading it (the recording is dropped). Never throws. */
    void close();

    /**
     * What a log says was committed.
     *
     * @param transactions the committed transactions that wrote rows, in commit order
     * @param leftOut      tables whose writes the log shows incompletely (a TRUNCATE, a value
     *                     that could not be read back), with why: every operation on them is
     *                     left out of the check
     */
    record Account(List<CommittedTransaction> transactions, Map<String, String> leftOut) {

        /** Validates and copies. */
        public Account {
            transactions = List.copyOf(transactions);
            leftOut = Map.copyOf(leftOut);
        }
    }

    /**
     * One committed transaction's writes, in the order it made them.
     *
     * @param xid    the server's transaction id (32 bits, as logical decoding reports it; a GTID
     *               as one number on MariaDB)
     * @param writes its row writes
     */
    record CommittedTransaction(long xid, List<CommittedWrite> writes) {

        /** Validates and copies. */
        public CommittedTransaction {
            writes = List.copyOf(writes);
        }
    }

    /**
     * One row written, its values read back as the recorder reads any row.
     *
     * @param table  the normalised table name (a partition is named by its partitioned table)
     * @param key    the row's key, {@code table/pk}
     * @param before the columns of the row as it was that the log gives (an UPDATE's or a
     *               DELETE's replica identity); for an UPDATE the log gives none of, but would
     *               have given the old key of had the key changed, the row's key columns, which
     *               it had before too (a read of them says the row was there); {@code null} for
     *               an INSERT or when none
     * @param after  the row written, every column; {@code null} for a DELETE
     * @param change which of the transaction's row changes this is (0, 1, ...): an UPDATE that
     *               moved a row to another key is one change and two writes
     * @param inserted whether the log shows an INSERT: the row's key was absent when it was
     *               inserted (a primary key admits no second row)
     */
    record CommittedWrite(String table, String key, Map<String, Object> before, Map<String, Object> after, int change,
                          boolean inserted) {

        /** A write the log does not show as an INSERT. */
        public CommittedWrite(String table, String key, Map<String, Object> before, Map<String, Object> after, int change) {
            this(table, key, before, after, change, false);
        }

        /** Validates. */
        public CommittedWrite {
            Objects.requireNonNull(table, "table is null");
            Objects.requireNonNull(key, "key is null");
        }
    }
}
