#!/bin/bash
# The network probe's io_uring modes against its epoll baseline, each ratio
# taken within one run (the modes run one after another in one process, on
# the same workers and connections), over a few runs. Prints messages per
# second, the ratio to epoll, and the CPU of the server threads per message.
# Informs, never gates: loopback on a shared VM is noisy, and the medians
# say more than any one run.
#
#   bash tests/bench/probe_net.sh [SECONDS] [ROUNDS] [WORKERS] [CONNECTIONS]   (after make)
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-2}
rounds=${2:-3}
workers=${3:-}
conns=${4:-16}
BIN=./uringlint
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT

for r in $(seq "$rounds"); do
	"$BIN" probe --net --duration "$secs" ${workers:+--workers "$workers"} --connections "$conns" \
		--format json --fail-on never >"$out.$r"
done
jq -s -r '
	def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def fmt(d): if . == null then "-" else (. * pow(10; d) | round) / pow(10; d) | tostring end;
	(map(.probe.net)) as $runs
	| ([$runs[].modes[].mode] | unique) as $names
	| (["MODE", "MSG/S (median)", "vs epoll (median)", "per run", "CPU us/MSG", "ENTER/MSG"] | @tsv),
	  ($names | sort_by(. as $n | ["epoll", "uring", "multishot", "send-zc", "napi"] | index($n))[] as $m
	   | [$runs[] | . as $run | ($run.modes[] | select(.mode == $m)) as $x
	      | ($run.modes[] | select(.mode == "epoll") | .msgs_per_sec) as $e
	      | {rate: $x.msgs_per_sec, ratio: (if $e then $x.msgs_per_sec / $e else null end),
	         cpu: $x.cpu_us_per_msg, enters: $x.enters_per_msg}] as $v
	   | [$m, ([$v[].rate] | median | fmt(0)), ([$v[].ratio | select(. != null)] | median | fmt(2)),
	      ([$v[].ratio | fmt(2)] | join(" ")), ([$v[].cpu] | median | fmt(2)),
	      ([$v[].enters] | median | fmt(3))] | @tsv),
	  ($runs[0].skipped[] | "\(.mode)\tnot run: \(.reason)")
' "$out".* >"$out"
jq -r --arg n "$rounds" '.probe.net | "\(.workers) workers on CPUs \(.cpus | map(tostring) | join(",")), \(.connections) connections, \(.msg_size)-byte messages, \(.duration) s a mode, \($n) runs\n"' "$out.1"
column -t -s $'\t' "$out"
