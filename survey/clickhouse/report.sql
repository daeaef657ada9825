SELECT
    crawler,
    any(p)                    AS purpose,
    countIf(r = 'full')       AS full,
    countIf(r = 'partial')    AS partial,
    countIf(r = 'none')       AS none,
    countIf(r = 'unknown')    AS unknown
FROM
(
    -- Each host's latest capture (by time, then URL) for each crawler.
    SELECT
        host,
        crawler,
        any(purpose)                                   AS p,
        argMax(restriction, concat(time, '\0', url))   AS r
    FROM rep.survey_v1
    GROUP BY host, crawler
)
GROUP BY crawler
ORDER BY crawler
FORMAT JSONEachRow
