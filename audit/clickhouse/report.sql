SELECT
    crawler,
    count()                                                AS requests,
    sumIf(b, b > 0)                                        AS bytes,
    countIf(identity = 'verified')                         AS verified,
    countIf(identity = 'spoofed')                          AS spoofed,
    countIf(identity = 'unverifiable')                     AS unverifiable,
    countIf(identity = 'rdns-only')                        AS rdns_only,
    countIf(r = 'disallow')                                AS disallowed_requests,
    countIf(r = 'grace')                                   AS grace_requests,
    countIf(p = '/robots.txt')                             AS robots_fetches,
    sumMapIf([s], [toUInt64(1)], s >= 0 AND s < 1000)      AS status,
    sumMap([toDate(t)], [toUInt64(1)])                     AS days,
    countIf(g >= 0 AND d > 0)                              AS checked_gaps,
    countIf(g >= 0 AND d > 0 AND g < round(d * 1000))      AS too_fast,
    minIf(g, g >= 0 AND d > 0) / 1000                      AS shortest_gap_seconds,
    maxIf(d, g >= 0 AND d > 0)                             AS delay_seconds
FROM
(
    SELECT
        crawler,
        time                      AS t,
        bytes                     AS b,
        verified                  AS identity,
        robots                    AS r,
        splitByChar('?', path)[1] AS p,
        status                    AS s,
        gap_ms                    AS g,
        crawl_delay_s             AS d
    FROM rep.enrich_v1
    WHERE crawler != ''
)
GROUP BY crawler
ORDER BY crawler
FORMAT JSONEachRow
