-- Hosts by fetch class for each period, as survey.Report's classes: the
-- most restrictive class of each host's latest captures.
SELECT
    period,
    transform(c, [3, 2, 1, 0], ['disallow-all', 'rules', 'allow-all', 'missing'], '') AS class,
    count() AS hosts
FROM
(
    SELECT period, host, max(class_rank) AS c
    FROM rep.survey_v1_latest
    GROUP BY period, host
)
GROUP BY period, class
ORDER BY period, class
FORMAT JSONEachRow
