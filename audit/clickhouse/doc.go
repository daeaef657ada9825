// Package clickhouse holds the ClickHouse side of auditing logs that
// outgrow one machine: the table for `rep audit enrich` rows (row schema
// audit.RowSchema) and the SQL that computes the audit report's
// per-crawler figures from it, over a Distributed table that spans the
// shards. The statements are written for ClickHouse 18.16 (Debian 12's
// clickhouse-server) and later; docs/scale-out.md shows how to run them.
//
// The tests start two ClickHouse servers on loopback ports, load the
// enrich rows of a generated log of a million lines through the
// Distributed table and require the figures to equal `rep audit -json`'s.
package clickhouse

import _ "embed"

// Schema creates the database rep, the shard-local MergeTree table
// rep.enrich_v2_local holding enrich rows of schema version 2 (the
// columns of audit.RowColumns, in order) and the Distributed table
// rep.enrich_v2 over the shards of the cluster named rep (which the
// servers' remote_servers configuration defines). Run it on every shard.
//
//go:embed schema.sql
var Schema string

// Report is the query of the per-crawler figures over rep.enrich_v2, one
// JSON object per crawler: the counts of the audit report's Crawler
// (requests, bytes, verified, spoofed, unverifiable, rdns_only,
// disallowed_requests, grace_requests, robots_fetches, and its
// signatures' verified, invalid and unverified as signatures_verified,
// signatures_invalid and signatures_unverified), the status, day,
// verified_by and signature_reasons mixes as [keys, counts] pairs, and the
// Crawl-delay figures (checked_gaps, too_fast, shortest_gap_seconds,
// delay_seconds). ClickHouse 18.16's sumMap takes no String keys, so the
// two string-keyed mixes are counted in a subquery and joined.
//
//go:embed report.sql
var Report string
