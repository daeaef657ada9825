"""Run `rep filter` and `rep survey` over Spark partitions.

The rep binary and the robots.txt captures are shipped to every executor
with SparkContext.addFile; each partition streams through one rep process
(mapPartitions over a subprocess), so Spark brings the scale-out and rep
the verdicts, exactly those of the CLI on one machine.

    spark-submit contrib/spark/rep_spark.py filter \
        --rep ./rep --captures robots.jsonl --agent ai-training \
        --input s3://bucket/docs/*.jsonl --output s3://bucket/verdicts/

    spark-submit contrib/spark/rep_spark.py survey \
        --rep ./rep --agent ai-training,search \
        --input captures/*.jsonl --output rows/

Several jobs run in one Spark application, one after the other, when their
commands follow each other on the command line: Spark starts once (its
start-up is most of a small job's time).

    spark-submit contrib/spark/rep_spark.py --rep ./rep \
        filter --captures robots.jsonl --agent ai-training \
            --input docs/*.jsonl --output verdicts/ \
        survey --agent ai-training,search --input robots.jsonl --output rows/

--rep and --master belong to the run: give them once (before the first
command or in any job), or equal in every job.

filter: the input is JSONL documents (one object per line with a "url"
field; -date-field for -pick asof); the output is rep filter's output for
each document (a verdict per line by default, or the kept input lines with
--rep-args "-emit keep"). Each task loads the captures once (rep filter
spools their bodies to local disk and parses a host only when a document
needs it), so a task of a million documents pays for the load once.

survey: the input is JSONL captures (rep survey's JSONL input); they are
partitioned by host first, so a redirect between two captures of one host
(http to https, the common case) is followed as on one machine. A redirect
to another host's capture in another partition is not: that capture is
then "missing".

Extra flags for rep go in --rep-args, e.g. --rep-args "-all-of -pick asof".
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import threading
import zlib
from urllib.parse import urlsplit

from pyspark import SparkFiles
from pyspark.sql import SparkSession


def run_rep(argv, lines):
    """Streams lines (str, no line end) through one rep process; yields
    its output lines. A non-zero exit raises, failing the task."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    err = []

    def feed():
        try:
            for line in lines:
                p.stdin.write(line.encode("utf-8") + b"\n")
        except BrokenPipeError:
            pass
        finally:
            try:
                p.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        err.append(p.stderr.read())

    t = threading.Thread(target=feed, daemon=True)
    e = threading.Thread(target=drain, daemon=True)
    t.start()
    e.start()
    for out in p.stdout:
        yield out.decode("utf-8").rstrip("\n")
    t.join()
    rc = p.wait()
    e.join()
    if rc != 0:
        raise RuntimeError("%s exited %d: %s" % (argv[0], rc, b"".join(err).decode("utf-8", "replace")))


def host_of(line):
    """The host of a JSONL capture line, for partitioning."""
    try:
        c = json.loads(line)
    except ValueError:
        return ""
    h = c.get("host") or ""
    if not h and c.get("url"):
        h = urlsplit(c["url"]).hostname or ""
    return h.lower()


COMMANDS = ("filter", "survey")


def job_parser():
    ap = argparse.ArgumentParser(prog="rep_spark.py COMMAND", add_help=False)
    ap.add_argument("--rep", help="the rep binary (built for the executors' platform)")
    ap.add_argument("--master", default=None, help="Spark master (default: spark-submit's)")
    ap.add_argument("--captures", help="filter: the robots.txt captures (a file rep survey reads)")
    ap.add_argument("--agent", required=True, help="crawlers: names or purposes, comma-separated")
    ap.add_argument("--input", required=True, help="JSONL input (documents for filter, captures for survey)")
    ap.add_argument("--output", required=True, help="output directory (Spark text files)")
    ap.add_argument("--partitions", type=int, default=0, help="number of partitions (default: Spark's)")
    ap.add_argument("--rep-args", default="", help="more flags for rep")
    return ap


def split_jobs(argv):
    """Splits argv into the run's options and jobs, each job starting with
    a command. Every option takes a value, so a command word is one not
    preceded by an option."""
    head, jobs = [], []
    for i, tok in enumerate(argv):
        if tok in COMMANDS and (i == 0 or not argv[i - 1].startswith("--")):
            jobs.append([tok])
        elif jobs:
            jobs[-1].append(tok)
        else:
            head.append(tok)
    return head, jobs


def parse_args(argv):
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        raise SystemExit(0)
    head, jobs = split_jobs(argv)
    run = argparse.ArgumentParser(prog="rep_spark.py", add_help=False)
    run.add_argument("--rep")
    run.add_argument("--master")
    g = run.parse_args(head)
    if not jobs:
        run.error("give a command: filter or survey (-h for help)")
    ap = job_parser()
    parsed = []
    for job in jobs:
        a = ap.parse_args(job[1:])
        a.command = job[0]
        if a.command == "filter" and not a.captures:
            ap.error("filter needs --captures")
        parsed.append(a)
    # --rep and --master belong to the run: given once, or equal in every
    # job.
    for opt in ("rep", "master"):
        vals = {getattr(a, opt) for a in parsed + [g]} - {None}
        if len(vals) > 1:
            ap.error("--%s differs between the jobs: %s" % (opt, sorted(vals)))
        for a in parsed:
            setattr(a, opt, next(iter(vals), None))
    if parsed[0].rep is None:
        ap.error("--rep is required")
    return parsed


def run_job(sc, a, rep_name):
    """Runs one job (filter or survey) on the SparkContext sc."""
    cap_name = None
    if a.captures:
        sc.addFile(os.path.abspath(a.captures))
        cap_name = os.path.basename(a.captures)
    extra = shlex.split(a.rep_args)
    agent = a.agent
    command = a.command

    rdd = sc.textFile(a.input, minPartitions=a.partitions) if a.partitions else sc.textFile(a.input)
    if command == "survey":
        n = a.partitions or rdd.getNumPartitions()
        rdd = (rdd.filter(lambda l: l.strip())
               .keyBy(host_of)
               .partitionBy(n, lambda h: zlib.crc32(h.encode("utf-8")))
               .values())

    def task(lines):
        rep = SparkFiles.get(rep_name)
        os.chmod(rep, 0o755)
        if command == "filter":
            argv = [rep, "filter", "-captures", SparkFiles.get(cap_name), "-agent", agent] + extra + ["-"]
        else:
            argv = [rep, "survey", "-agent", agent, "-format", "jsonl"] + extra + ["-"]
        return run_rep(argv, lines)

    rdd.mapPartitions(task).saveAsTextFile(a.output)


def main():
    jobs = parse_args(sys.argv[1:])
    first = jobs[0]
    b = SparkSession.builder.appName("rep " + " ".join(j.command for j in jobs))
    if first.master:
        b = b.master(first.master)
    if first.master and first.master.startswith("local"):
        # Local mode talks to itself only: on the loopback address, no UI.
        b = (b.config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.ui.enabled", "false"))
    spark = b.getOrCreate()
    sc = spark.sparkContext
    sc.addFile(os.path.abspath(first.rep))
    rep_name = os.path.basename(first.rep)
    try:
        for a in jobs:
            run_job(sc, a, rep_name)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
