CREATE DATABASE IF NOT EXISTS rep;

CREATE TABLE IF NOT EXISTS rep.enrich_v2_local (
    src              String,
    line             UInt64,
    time             DateTime('UTC'),
    ip               String,
    host             String,
    method           String,
    path             String,
    status           Int32,
    bytes            Nullable(Int64),
    ua               String,
    crawler          String,
    operator         String,
    purpose          String,
    verified         String,
    verified_by      String,
    signature        String,
    signature_reason String,
    robots           String,
    rule             String,
    rule_line        UInt32,
    robots_version   String,
    gap_ms           Nullable(Int64),
    crawl_delay_s    Float64,
    error            String,
    text             String,
    skip             String
) ENGINE = MergeTree() ORDER BY (crawler, src, line);

CREATE TABLE IF NOT EXISTS rep.enrich_v2 AS rep.enrich_v2_local
    ENGINE = Distributed(rep, rep, enrich_v2_local, rand());
