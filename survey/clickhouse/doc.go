// Package clickhouse holds the ClickHouse side of a survey that outgrows
// one machine's report: the table for `rep survey -out csv` rows (row
// schema survey.SchemaVersion 1, the columns of survey.Columns in order),
// a view of each host's latest rows per period, and the SQL of the
// report's counts over it: hosts by restriction per crawler, hosts
// restricting each purpose, hosts by fetch class, for all captures and
// for each month when the rows span several, as audit/clickhouse does for
// the audit's rows. The SQL counts what survey.Report counts, by the same
// rules (survey.Report's documentation): a host's latest capture by time;
// for captures of a host with the same time, the most restrictive answer
// for each crawler and the most restrictive fetch class; a crawler with no
// row in them unknown. The statements are written for ClickHouse 18.16
// (Debian 12's clickhouse-server) and later, which reads no JSON or CSV
// true/false into a number: root_allowed and truncated are String
// columns.
//
// The test starts a ClickHouse server on loopback ports, loads the rows
// of a survey of the corpus (as a directory, and as captures spread over
// three months with ties, untimed captures and uncaptured redirects) and
// requires every count to equal the report `rep survey -report json`
// writes in the same run that wrote the rows.
package clickhouse

import _ "embed"

// Schema creates the database rep, the MergeTree table rep.survey_v1 and
// the view rep.survey_v1_latest: per period ("all" and each month when
// the rows span several), host and crawler, the rank of the most
// restrictive restriction (3 full, 2 partial, 1 none, 0 unknown) and
// fetch class (3 disallow-all, 2 rules, 1 allow-all, 0 missing) among the
// host's rows with its latest time in the period.
//
//go:embed schema.sql
var Schema string

// Report is the query of hosts by restriction per period and crawler,
// one JSON object per pair: period, crawler, purpose, hosts (of the
// period), full, partial, none, unknown.
//
//go:embed report.sql
var Report string

// Purposes is the query of survey.PurposeShare's counts per period and
// purpose, one JSON object per pair: period, purpose, known,
// any_restricted, all_full.
//
//go:embed purposes.sql
var Purposes string

// Classes is the query of hosts by fetch class per period, one JSON
// object per pair with hosts: period, class, hosts.
//
//go:embed classes.sql
var Classes string
