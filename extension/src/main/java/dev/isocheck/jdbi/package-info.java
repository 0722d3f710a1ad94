/**
 * Jdbi support: {@link dev.isocheck.jdbi.IsocheckPlugin} names each recorded statement after the
 * SqlObject method that ran it, so that reports say {@code AccountDao.withdraw} where they would
 * otherwise show only the SQL.
 *
 * <p>Recording itself needs nothing from this package: {@code Jdbi.create(Isocheck.record(dataSource))}
 * records every transaction Jdbi runs, as for any JDBC code. Jdbi is an optional dependency of
 * isocheck, and this is the only package that refers to it: the rest of isocheck loads and
 * records without Jdbi on the class path.
 */
package dev.isocheck.jdbi;
