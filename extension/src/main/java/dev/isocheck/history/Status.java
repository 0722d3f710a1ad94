package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** How a transaction ended. Only committed transactions install their writes. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Status {
    /** The commit was acknowledged. */
    COMMITTED,
    /** The transaction rolled back or was aborted by the database; it installs nothing. */
    ABORTED
}
