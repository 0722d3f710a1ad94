-- The hospital's two tables, shared by the three ways the application is written.
-- IF NOT EXISTS: every application context of a test run (one per configuration) runs this script.
CREATE TABLE IF NOT EXISTS supply (
    sku     VARCHAR(40) PRIMARY KEY,
    on_hand INTEGER     NOT NULL,
    -- Bumped by the MyBatis stockroom's optimistic update only (SupplyMapper.setOnHandIfUnchanged).
    version BIGINT      NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS doctor (
    name    VARCHAR(40) PRIMARY KEY,
    shift   INTEGER     NOT NULL,
    on_call BOOLEAN     NOT NULL
);
