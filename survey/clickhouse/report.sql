-- Hosts by restriction for each period and crawler, as survey.Report's
-- crawlers: every crawler of the table in every period; a host without a
-- row for the crawler in its latest captures counts as unknown.
SELECT
    period,
    crawler,
    purpose,
    hosts,
    full,
    partial,
    none,
    hosts - full - partial - none AS unknown
FROM
(
    SELECT period, hosts, crawler, purpose
    FROM
    (
        SELECT period, uniqExact(host) AS hosts
        FROM rep.survey_v1_latest
        GROUP BY period
    )
    CROSS JOIN
    (
        SELECT crawler, any(purpose) AS purpose
        FROM rep.survey_v1
        GROUP BY crawler
    )
)
ANY LEFT JOIN
(
    SELECT
        period,
        crawler,
        countIf(rank = 3) AS full,
        countIf(rank = 2) AS partial,
        countIf(rank = 1) AS none
    FROM rep.survey_v1_latest
    GROUP BY period, crawler
) USING (period, crawler)
ORDER BY period, crawler
FORMAT JSONEachRow
