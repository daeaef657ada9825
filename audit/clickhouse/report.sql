SELECT
    crawler, requests, bytes, verified, spoofed, unverifiable, rdns_only,
    signatures_verified, signatures_invalid, signatures_unverified,
    disallowed_requests, grace_requests, robots_fetches, status, days,
    checked_gaps, too_fast, shortest_gap_seconds, delay_seconds,
    verified_by, signature_reasons
FROM
(
    SELECT
        crawler,
        count()                                                AS requests,
        sumIf(b, b > 0)                                        AS bytes,
        countIf(identity = 'verified')                         AS verified,
        countIf(identity = 'spoofed')                          AS spoofed,
        countIf(identity = 'unverifiable')                     AS unverifiable,
        countIf(identity = 'rdns-only')                        AS rdns_only,
        countIf(sig = 'verified')                              AS signatures_verified,
        countIf(sig = 'invalid')                               AS signatures_invalid,
        countIf(sig = 'unverified')                            AS signatures_unverified,
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
            signature                 AS sig,
            robots                    AS r,
            splitByChar('?', path)[1] AS p,
            status                    AS s,
            gap_ms                    AS g,
            crawl_delay_s             AS d
        FROM rep.enrich_v2
        WHERE crawler != ''
    )
    GROUP BY crawler
)
ANY LEFT JOIN
(
    -- The mixes keyed by strings, which sumMap cannot key by before
    -- ClickHouse 20: counted per key, then gathered per crawler.
    SELECT
        crawler,
        (groupArrayIf(k, f = 'by'), groupArrayIf(n, f = 'by'))   AS verified_by,
        (groupArrayIf(k, f = 'why'), groupArrayIf(n, f = 'why')) AS signature_reasons
    FROM
    (
        SELECT crawler, 'by' AS f, verified_by AS k, count() AS n
        FROM rep.enrich_v2
        WHERE crawler != '' AND verified = 'verified'
        GROUP BY crawler, k
        UNION ALL
        SELECT crawler, 'why' AS f, signature_reason AS k, count() AS n
        FROM rep.enrich_v2
        WHERE crawler != '' AND signature_reason != ''
        GROUP BY crawler, k
    )
    GROUP BY crawler
) USING crawler
ORDER BY crawler
FORMAT JSONEachRow
