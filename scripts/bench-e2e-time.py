#!/usr/bin/env python3
"""Times tools in alternation, for scripts/bench-e2e: each round runs every tool once, in order,
so load from other processes lands on every tool alike (what hyperfine, one command after the
other, does not give on a shared machine).

    bench-e2e-time.py --runs N --label L --results FILE --fresh DIR \
        --tool NAME OUT COMMAND [--tool NAME OUT COMMAND ...]

Each tool: a name, where its standard output goes (a file, or - for /dev/null), and its command
line (split like a shell's words, run directly: no shell). DIR is removed before every run of every tool (tcpflow's output
directory: each run writes a fresh one). One warm-up round first. Appends to FILE one line per
tool: label, name, median, min and max seconds, and its peak RSS in KiB from one more run under
`/usr/bin/time -f %M` (a child's own ru_maxrss would count the pages it shared with this Python
process before exec); prints the same, readable, with the median CPU time (user + system), which
load from other processes disturbs less than wall time.
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv, out):
    """Seconds of wall time and of CPU time (user + system) of one run; fails loudly on a
    non-zero exit."""
    sink = open(out, "wb") if out != "-" else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        if sink is not subprocess.DEVNULL:
            sink.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench-e2e-time: {argv[0]} exited {code}")
    return elapsed, usage.ru_utime + usage.ru_stime


def peak_rss(argv, out, fresh):
    """Peak RSS in KiB of one run, measured by /usr/bin/time."""
    shutil.rmtree(fresh, ignore_errors=True)
    with tempfile.NamedTemporaryFile("r") as report:
        run(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv, out)
        return int(report.read().split()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--label", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--fresh", required=True)
    parser.add_argument("--tool", nargs=3, action="append", required=True, metavar=("NAME", "OUT", "COMMAND"))
    options = parser.parse_args()
    tools = [(name, out, shlex.split(command)) for name, out, command in options.tool]
    times = {name: [] for name, _, _ in tools}
    cpu = {name: [] for name, _, _ in tools}
    for round_ in range(options.runs + 1):
        for name, out, argv in tools:
            shutil.rmtree(options.fresh, ignore_errors=True)
            elapsed, used = run(argv, out)
            if round_ > 0:
                times[name].append(elapsed)
                cpu[name].append(used)
    peaks = {name: peak_rss(argv, out, options.fresh) for name, out, argv in tools}
    shutil.rmtree(options.fresh, ignore_errors=True)
    with open(options.results, "a") as results:
        for name, _, _ in tools:
            median, low, high = statistics.median(times[name]), min(times[name]), max(times[name])
            print(options.label, name, f"{median:.4f}", f"{low:.4f}", f"{high:.4f}", peaks[name], sep="\t", file=results)
            print(f"   {name:<22} median {median:8.3f} s ({low:.3f}…{high:.3f}), CPU {statistics.median(cpu[name]):.3f} s"
                  f"  peak RSS {peaks[name] / 1024:7.1f} MiB")


main()
