"""The Apertus-style robots.txt filter with datatrove and protego, for the
filter benchmark (bench/filter.sh): a datatrove BaseFilter that drops a
document when any crawler of the list may not fetch its URL by the
robots.txt of its host, parsed once per host with protego, as the Apertus
pipeline's filter does. Hosts without a file keep their documents.

usage: datatrove_filter.py DOCS_DIR ROBOTS_DIR OUT_DIR AGENT[,AGENT...]
"""

import os
import sys
from urllib.parse import urlsplit

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.filters.base_filter import BaseFilter
from datatrove.pipeline.readers import JsonlReader
from datatrove.pipeline.writers import JsonlWriter
from protego import Protego


class RobotsFilter(BaseFilter):
    name = "robots.txt"

    def __init__(self, robots_dir, agents):
        super().__init__()
        self.robots_dir = robots_dir
        self.agents = agents
        self.parsed = {}

    def parser(self, host):
        if host not in self.parsed:
            p = os.path.join(self.robots_dir, host)
            rp = None
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    rp = Protego.parse(f.read().decode("utf-8", "replace"))
            self.parsed[host] = rp
        return self.parsed[host]

    def filter(self, doc):
        url = doc.metadata["url"]
        rp = self.parser((urlsplit(url).hostname or "").lower())
        if rp is None:
            return True
        for a in self.agents:
            if not rp.can_fetch(url, a):
                return False, "robots.txt: " + a
        return True


def main():
    docs, robots, out, agents = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
    LocalPipelineExecutor(
        pipeline=[
            JsonlReader(docs, glob_pattern="docs.jsonl", text_key="text", id_key="id"),
            RobotsFilter(robots, agents),
            JsonlWriter(out, output_filename="kept.jsonl", compression=None),
        ],
        tasks=1,
        workers=1,
        logging_dir=os.path.join(out, "logs"),
    ).run()


if __name__ == "__main__":
    main()
