# shellcheck shell=bash
# Sourced by package.sh with $TMP/textfile holding the service's report:
# Debian's node_exporter reads it, Prometheus scrapes node_exporter with the
# shipped rules and a copy whose for: durations are seconds, both on free
# loopback ports, both stopped when done (their PIDs in servers, which the
# caller's trap kills). Polls Prometheus's HTTP API for at most 60 s.

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# api PATH: Prometheus's HTTP API, the JSON on stdout.
api() { curl -sf --max-time 5 "http://127.0.0.1:$pport$1"; }

nport=$(free_port)
pport=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$nport" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$TMP/textfile" >"$TMP/ne.log" 2>&1 &
servers+=($!)
# The shipped rules, and the same with for: in seconds, as a group of its own.
sed -e 's/^  - name: uringlint\./  - name: fast./' -e 's/for: [0-9]*m$/for: 5s/' \
	dist/prometheus/uringlint.rules.yml >"$TMP/fast.rules.yml"
cat >"$TMP/prometheus.yml" <<YML
global: {scrape_interval: 1s, evaluation_interval: 1s}
rule_files: ["$PWD/dist/prometheus/uringlint.rules.yml", "$TMP/fast.rules.yml"]
scrape_configs:
  - job_name: node
    static_configs: [{targets: ["127.0.0.1:$nport"]}]
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$TMP/prometheus.log" 2>&1 &
servers+=($!)

# state GROUP: the state of the failing check's alert for our process in
# that rule group, or nothing.
state() {
	api /api/v1/rules?type=alert | jq -r --arg g "$1" --arg p "pid $pid fd 3 " '
		.data.groups[] | select(.name == $g) | .rules[] | select(.name == "UringlintCheckFailing")
		| .alerts[] | select(.labels.id == "fd-o-direct" and (.labels.subject | startswith($p)))
		| .state'
}
series='' pending='' firing=''
for _ in $(seq 120); do
	[ -z "$series" ] && api "/api/v1/query?query=uringlint_check_status%7Bid=%22fd-o-direct%22%7D" |
		jq -e --arg p "pid $pid fd 3 " '[.data.result[] | select(.metric.subject | startswith($p))
			| .value[1]] == ["2"]' >/dev/null && series=1
	[ -z "$pending" ] && [ "$(state uringlint.alerts)" = pending ] && pending=1
	[ -z "$firing" ] && [ "$(state fast.alerts)" = firing ] && firing=1
	[ -n "$series" ] && [ -n "$pending" ] && [ -n "$firing" ] && break
	sleep 0.5
done
[ -n "$series" ] && ok "Prometheus has the fd-o-direct fail series through node_exporter" ||
	bad "uringlint series in Prometheus" "$(tail -3 "$TMP/ne.log")" "$(tail -3 "$TMP/prometheus.log")"
[ -n "$pending" ] && ok "UringlintCheckFailing is pending for the buffered writer (shipped rules, for: 15m)" ||
	bad "UringlintCheckFailing pending" "$(api /api/v1/alerts | head -c 600)"
if [ -n "$firing" ]; then
	ok "UringlintCheckFailing fires for the buffered writer (for: 5s)"
	# The evidence, as Prometheus's API gives it.
	api /api/v1/alerts | jq -c --arg p "pid $pid " '.data.alerts[] |
		select(.labels.subject | startswith($p)) | select(.labels.alertname == "UringlintCheckFailing")' \
		>"$TMP/alerts.json"
	sed 's/^/     /' "$TMP/alerts.json"
else
	bad "UringlintCheckFailing firing" "$(api /api/v1/alerts | head -c 600)"
fi
kill "${servers[@]}" 2>/dev/null
wait "${servers[@]}" 2>/dev/null
servers=()
