CREATE DATABASE IF NOT EXISTS rep;

CREATE TABLE IF NOT EXISTS rep.survey_v1 (
    schema           UInt8,
    host             String,
    url              String,
    time             String,
    month            String,
    status           Int32,
    redirects        UInt32,
    `case`           String,
    class            String,
    crawler          String,
    purpose          String,
    restriction      String,
    `group`          String,
    via              String,
    group_line       UInt32,
    root_allowed     String,
    line             UInt32,
    rule             String,
    crawl_delay      Float64,
    crawl_delay_line UInt32,
    train_ai         String,
    ai_use           String,
    search           String,
    bytes            UInt64,
    truncated        String,
    diagnostics      UInt32,
    errors           UInt32
) ENGINE = MergeTree() ORDER BY (crawler, host, time, url);

-- Each host's latest rows in each period, the period 'all' and, when the
-- rows span more than one month, each month: the rows with the host's
-- greatest time in the period ('' is older than any time), one row per
-- crawler with the most restrictive of those rows' restrictions (rank 3
-- full, 2 partial, 1 none, 0 unknown) and fetch classes (3 disallow-all,
-- 2 rules, 1 allow-all, 0 missing), as survey.Reporter counts them.
CREATE VIEW IF NOT EXISTS rep.survey_v1_latest AS
SELECT
    period,
    host,
    crawler,
    max(rank)       AS rank,
    max(class_rank) AS class_rank
FROM
(
    SELECT
        arrayJoin(if(month = '', ['all'], ['all', month])) AS period,
        host,
        time,
        crawler,
        multiIf(restriction = 'full', 3, restriction = 'partial', 2, restriction = 'none', 1, 0) AS rank,
        multiIf(class = 'disallow-all', 3, class = 'rules', 2, class = 'allow-all', 1, 0)       AS class_rank
    FROM rep.survey_v1
)
ALL INNER JOIN
(
    SELECT
        arrayJoin(if(month = '', ['all'], ['all', month])) AS period,
        host,
        max(time) AS time
    FROM rep.survey_v1
    GROUP BY period, host
) USING (period, host, time)
WHERE period = 'all' OR (SELECT uniqExact(month) FROM rep.survey_v1 WHERE month != '') > 1
GROUP BY period, host, crawler;
