#!/bin/bash
# make fuzz: every libFuzzer harness for FUZZ_SECONDS, each from a corpus
# seeded with the testdata its parser reads in real use plus the saved
# regression inputs. A crash leaves its input in build/fuzz/artifacts/NAME/:
# fix the bug, then keep the input in tests/fuzz/regressions/NAME/ so that
# `make check` replays it for ever.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
secs=${FUZZ_SECONDS:-20}

. tests/fuzz/seeds.sh

# fuzz_one NAME BIN: seeds the corpus, fuzzes, and leaves its verdict line
# (and on failure the log's tail) in $B/fuzz/NAME.result.
fuzz_one() {
	local name=$1 bin=$2 n=0 f
	local corpus=$B/fuzz/corpus/$name artifacts=$B/fuzz/artifacts/$name/ res=$B/fuzz/$name.result
	mkdir -p "$corpus" "$artifacts"
	while read -r f; do
		# Content-named copies: a seed that is already there is not copied twice.
		cp "$f" "$corpus/seed-$(sha1sum <"$f" | cut -c1-16)"
		n=$((n + 1))
	done < <(seeds "$name")
	if [ "$n" -eq 0 ]; then
		echo "FAIL fuzz_$name: no seed inputs found" >"$res"
		return
	fi
	# -close_fd_mask=2: the config and merge readers print one line per bad
	# input on stderr, by design; libFuzzer's own report still shows.
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
		-artifact_prefix="$artifacts" -print_final_stats=0 "$corpus" \
		>"$B/fuzz/$name.log" 2>&1; then
		echo "ok   fuzz_$name: $(grep -o 'Done [0-9]* runs' "$B/fuzz/$name.log" | tail -n 1) from $n seeds" >"$res"
	else
		{
			echo "FAIL fuzz_$name: see $B/fuzz/$name.log and $artifacts"
			tail -n 30 "$B/fuzz/$name.log"
		} >"$res"
	fi
}

# One harness per CPU at a time: each is single-threaded.
jobs=${FUZZ_JOBS:-$(nproc)}
names=()
for bin in "$B"/fuzz/fuzz_*; do
	name=${bin##*/fuzz_}
	names+=("$name")
	rm -f "$B/fuzz/$name.result"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	fuzz_one "$name" "$bin" &
done
wait
pass=0 fail=0
for name in "${names[@]}"; do
	if [ -f "$B/fuzz/$name.result" ]; then
		cat "$B/fuzz/$name.result"
	else
		echo "FAIL fuzz_$name: gave no verdict"
	fi
	if grep -q '^ok ' "$B/fuzz/$name.result" 2>/dev/null; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
