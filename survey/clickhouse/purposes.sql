-- Hosts by purpose for each period, as survey.Report's purposes: known,
-- the hosts where at least one of the purpose's crawlers has a known
-- restriction; any_restricted, those where one of them is restricted
-- (full or partial); all_full, those where every one of them with a known
-- restriction is fully restricted.
SELECT
    period,
    purpose,
    known,
    any_restricted,
    all_full
FROM
(
    SELECT period, purpose
    FROM
    (
        SELECT DISTINCT period
        FROM rep.survey_v1_latest
    )
    CROSS JOIN
    (
        SELECT DISTINCT purpose
        FROM rep.survey_v1
        WHERE purpose != ''
    )
)
ANY LEFT JOIN
(
    SELECT
        period,
        purpose,
        count()               AS known,
        countIf(restricted > 0) AS any_restricted,
        countIf(full = n)     AS all_full
    FROM
    (
        SELECT
            period,
            host,
            purpose,
            count()            AS n,
            countIf(rank >= 2) AS restricted,
            countIf(rank = 3)  AS full
        FROM rep.survey_v1_latest
        ANY INNER JOIN
        (
            SELECT crawler, any(purpose) AS purpose
            FROM rep.survey_v1
            GROUP BY crawler
        ) USING (crawler)
        WHERE purpose != '' AND rank > 0
        GROUP BY period, host, purpose
    )
    GROUP BY period, purpose
) USING (period, purpose)
ORDER BY period, purpose
FORMAT JSONEachRow
