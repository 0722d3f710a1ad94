-- The bank's schema: read by jOOQ's code generator (DDLDatabase, at build time, no database
-- needed) to write the ACCOUNT table's classes, and run by Bank.createSchema at run time.
CREATE TABLE account (
  id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner   VARCHAR(40) NOT NULL,
  balance INTEGER NOT NULL
);
