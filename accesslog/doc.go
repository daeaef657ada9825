// Package accesslog reads web-server access logs into records, fast.
//
// It understands the NCSA Common and Combined Log Formats (Apache
// mod_log_config, https://httpd.apache.org/docs/current/logs.html, and the
// nginx default "combined", https://nginx.org/en/docs/http/ngx_http_log_module.html),
// W3C Extended Log File Format (https://www.w3.org/TR/WD-logfile.html, as
// written by IIS, with "#Fields" directives that may change mid-file),
// Amazon CloudFront standard logs and Application Load Balancer logs (AWS
// documentation), Caddy's JSON access log, generic JSON lines (Traefik,
// Cloudflare Logpush, nginx escape=json) and any nginx log_format or Apache
// LogFormat string, compiled into a splitter.
//
// Input may be plain, gzip (multi-member), zstd or bzip2; the compression is
// recognised by its magic bytes and the format can be detected from the first
// lines. The hot path allocates nothing: a Record's byte fields are
// sub-slices of the Reader's buffer, valid until the next call to Next, and
// timestamps are parsed by hand and cached per distinct second. Lines that do
// not parse are counted, the first few kept as samples, and never fatal.
package accesslog
