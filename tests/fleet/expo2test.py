#!/usr/bin/env python3
"""expo2test.py RULES INSTANCE=FILE... > test.yml: a `promtool test rules` file
whose input series are uringlint's real exposition (one FILE per instance),
and whose expected alerts are derived from the values in it, so the rules
are tested against what uringlint writes, not against invented series.

Each sample holds its value for 70 minutes (one run, then the textfile
unchanged). The run's time is the test's time 0, so the run-time metric is
0. The expected annotations are the rules' templates filled in by hand:
they are what the alert must say."""
import json
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
PUNTS = ("iowq-workers", "iowq-punts", "file-punts")
MAN = "man:uringlint(1)"


def unescape(v):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), v)


def read(instance, path):
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            sys.exit(f"{path}: not a sample: {line}")
        labels = {k: unescape(v) for k, v in LABEL.findall(m.group(2) or "")}
        labels.update(instance=instance, job="node")
        yield m.group(1), labels, float(m.group(3))


def selector(name, labels):
    inner = ",".join(f'{k}={json.dumps(v)}' for k, v in sorted(labels.items()))
    return name + "{" + inner + "}"


def alert(labels, summary, description):
    return {"exp_labels": labels,
            "exp_annotations": {"summary": summary, "description": description,
                                "runbook_url": MAN}}


def explain(check):
    return f"`uringlint explain {check}` on the host, or man uringlint."


def check_alerts(samples, name, keep, what):
    out = []
    for metric, lb, v in samples:
        if metric != "uringlint_check_status" or not keep(lb, v):
            continue
        labels = dict(lb, alertname=name)
        out.append(alert(labels, *what(lb)))
    return out


def failing(lb):
    return (f"uringlint {lb['id']} fails: {lb['subject']} on {lb['instance']}",
            f"Check {lb['id']} ({lb['severity']}) has failed for {lb['subject']} for "
            f"15 minutes. Why and how to fix it: {explain(lb['id'])}")


def punting(lb):
    return (f"uringlint {lb['id']}: {lb['subject']} on {lb['instance']} punts to io-wq",
            f"Requests of {lb['subject']} leave io_uring's fast path for io-wq "
            f"({lb['id']}). Why and how to fix it: {explain(lb['id'])}")


def fast_path_lost(instance):
    return alert({"alertname": "UringlintProbeFastPathLost", "instance": instance, "job": "node"},
                 f"uringlint probe-fast-path fails: O_DIRECT requests punted on {instance}",
                 "The probe's O_DIRECT requests were punted to io-wq. Why and how to fix "
                 f"it: {explain('probe-fast-path')}")


def not_run(instance, age):
    return alert({"alertname": "UringlintNotRun", "instance": instance, "job": "node"},
                 f"uringlint has not run on {instance} for over an hour",
                 f"The last report is {age} old: check `systemctl status "
                 "uringlint-report.timer uringlint-report.service`.")


def series(samples, override=None):
    out = []
    for metric, lb, v in samples:
        if metric == "uringlint_last_run_timestamp_seconds":
            v = 0
        if override and metric in override:
            v = override[metric]
        out.append({"series": selector(metric, lb), "values": f"{v:g}+0x70"})
    return out


def test(samples, cases, override=None):
    return {"interval": "1m", "input_series": series(samples, override),
            "alert_rule_test": [{"eval_time": t, "alertname": n, "exp_alerts": a}
                                for t, n, a in cases]}


def main():
    samples = []
    for arg in sys.argv[2:]:
        instance, path = arg.split("=", 1)
        samples += list(read(instance, path))
    instances = sorted({lb["instance"] for _, lb, _ in samples})
    probed = sorted({lb["instance"] for m, lb, _ in samples if m == "uringlint_probe_fast_path"})
    fails = check_alerts(samples, "UringlintCheckFailing", lambda lb, v: v == 2, failing)
    punts = check_alerts(samples, "UringlintProcessPunting",
                         lambda lb, v: lb["id"] in PUNTS and 0 < v < 3, punting)
    if not fails or not punts or not probed:
        sys.exit("expo2test: the outputs need a fail, a punting process and a probe")
    lost = [fast_path_lost(i) for i in probed]
    cases = [
        # Pending is not firing: nothing before the rules' for: durations.
        ("14m", "UringlintCheckFailing", []),
        ("16m", "UringlintCheckFailing", fails),
        ("9m", "UringlintProcessPunting", []),
        ("11m", "UringlintProcessPunting", punts),
        # This host's probe keeps the fast path: nothing fires for it.
        ("1m", "UringlintProbeFastPathLost", []),
        # One run at 0, never again: over an hour old at 61m.
        ("59m", "UringlintNotRun", []),
        ("61m", "UringlintNotRun", [not_run(i, "1h 1m 0s") for i in instances]),
    ]
    # The same probe output with fast_path 0, the one value the test sets:
    # this host's O_DIRECT probe keeps the fast path.
    lost_cases = [("1m", "UringlintProbeFastPathLost", lost)]
    doc = {"rule_files": [sys.argv[1]], "evaluation_interval": "1m",
           "tests": [test(samples, cases),
                     test(samples, lost_cases, {"uringlint_probe_fast_path": 0})]}
    # JSON is YAML: promtool reads it as is.
    json.dump(doc, sys.stdout, indent=1)
    print()


main()
