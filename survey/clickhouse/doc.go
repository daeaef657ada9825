// Package clickhouse holds the ClickHouse side of a survey that outgrows
// one machine's report: the table for `rep survey -out csv` rows (row
// schema survey.SchemaVersion 1, the columns of survey.Columns in order)
// and the SQL of the report's per-crawler counts over all captures (each
// host's latest capture for each crawler: by time, then by URL), as
// audit/clickhouse does for the audit's rows. The statements are written
// for ClickHouse 18.16 (Debian 12's clickhouse-server) and later, which
// reads no JSON or CSV true/false into a number: root_allowed and
// truncated are String columns.
//
// The test starts a ClickHouse server on loopback ports, loads the rows
// of the corpus's survey and requires the counts to equal
// `rep survey -report json`'s.
package clickhouse

import _ "embed"

// Schema creates the database rep and the MergeTree table rep.survey_v1.
//
//go:embed schema.sql
var Schema string

// Report is the query of the per-crawler counts of hosts by restriction
// (full, partial, none, unknown) over rep.survey_v1, one JSON object per
// crawler with its purpose.
//
//go:embed report.sql
var Report string
