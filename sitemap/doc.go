// Package sitemap reads sitemaps as search engines do, one entry at a time:
// the XML urlset and sitemap index of the Sitemaps protocol, gzip-compressed
// sitemaps, plain-text sitemaps (one URL a line), and the RSS 2.0 and Atom
// 1.0 feeds Google accepts as sitemaps.
//
// Specifications followed:
//   - the Sitemaps protocol 0.9 (https://www.sitemaps.org/protocol.html):
//     the urlset and sitemapindex elements, entity escaping, the limits of
//     50,000 URLs and 50 MB (52,428,800 bytes) uncompressed per file, the
//     location rules (a sitemap lists URLs of its own host under its own
//     directory; one named in a robots.txt Sitemap line may list any URL of
//     that robots.txt's host);
//   - W3C Date and Time Formats (https://www.w3.org/TR/NOTE-datetime) for
//     lastmod;
//   - Google, "Build and submit a sitemap" and "Manage your sitemaps with a
//     sitemap index file" (developers.google.com/search/docs/crawling-indexing/
//     sitemaps): text sitemaps, RSS 2.0 (<item><link>, <pubDate>) and Atom
//     1.0 (<entry><link href>, <updated>) feeds, gzip.
//
// Parse streams: the XML is read token by token with encoding/xml's
// Decoder, a text sitemap line by line, so a 50 MB sitemap is never held
// whole; each entry reaches a callback as soon as it ends. Problems are
// Findings with a stable Code, a line and the entry's URL; Parse stops
// reading at a limit and reports it. A file is decompressed once: gzip
// inside gzip is refused with a not-sitemap finding, never read as text.
// Discover says where a site's sitemaps are: its robots.txt Sitemap lines,
// else /sitemap.xml.
package sitemap
