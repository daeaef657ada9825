"""A robots.txt survey with protego, for the survey benchmark
(bench/survey.sh): for each capture of a JSONL file (host or url, status,
body) and each crawler of the list, whether the crawler may fetch "/" and
its Crawl-delay, one JSON row per capture x crawler, as a study built on
protego computes "the site blocks the crawler". The fetch status is read
as rep survey reads it: 2xx parses the body, 429 and 5xx disallow all,
other 4xx allow all.

usage: protego_survey.py CAPTURES.jsonl AGENT[,AGENT...] > rows.jsonl
"""

import base64
import sys

import orjson
from protego import Protego


def main():
    path, agents = sys.argv[1], sys.argv[2].split(",")
    out = sys.stdout.buffer
    captures = 0
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            c = orjson.loads(line)
            captures += 1
            host = c.get("host") or c["url"].split("/")[2]
            status = int(c.get("status", 200))
            rp = None
            if 200 <= status < 300:
                body = c.get("body")
                if body is None:
                    body = base64.b64decode(c.get("body_base64", "")).decode("utf-8", "replace")
                rp = Protego.parse(body)
            root = "https://" + host + "/"
            for a in agents:
                if rp is not None:
                    allowed, delay = rp.can_fetch(root, a), rp.crawl_delay(a)
                else:
                    allowed, delay = not (status == 429 or status >= 500), None
                out.write(orjson.dumps({"host": host, "crawler": a, "root_allowed": allowed, "crawl_delay": delay}))
                out.write(b"\n")
    print(f"protego survey: {captures} captures, {len(agents)} crawlers", file=sys.stderr)


if __name__ == "__main__":
    main()
