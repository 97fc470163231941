#!/bin/bash
# The fleet roll-up without a server of its own: the shipped playbook
# (dist/ansible/uringlint-report.yml) run by Debian's Ansible against
# localhost, with a process writing buffered: the host's JSON report is
# collected and `report merge` folds it into fleet.json, which must carry
# the process's fd-o-direct failure. Bounded to 90 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
SUITE=fleet-ansible
. tests/e2e/lib.sh
. tests/e2e/live.sh

command -v ansible-playbook >/dev/null || { skip "ansible" "not installed (Debian: ansible-core)"; exit 77; }
mkdir -p "$TMP/data"
start buffered || exit 1
printf 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' >"$TMP/inventory"
if ANSIBLE_LOCAL_TEMP=$TMP/ansible ANSIBLE_HOME=$TMP/ansible timeout 90 ansible-playbook \
	-i "$TMP/inventory" dist/ansible/uringlint-report.yml -e report_dir="$TMP/out" \
	-e uringlint="$PWD/$BIN" -e uringlint_controller="$PWD/$BIN" \
	-e "{\"uringlint_args\": [\"--pid\", \"$pid\"]}" >"$TMP/ansible.log" 2>&1; then
	ok "ansible-playbook against localhost"
else
	bad "ansible-playbook" "$(tail -15 "$TMP/ansible.log")"
fi
if jq -e '.findings[] | select(.id == "fd-o-direct" and .status == "fail")' "$TMP/out/fleet.json" \
	>/dev/null 2>&1 && grep -q '^uringlint merge: fleet of 1 host' "$TMP/out/fleet.txt"; then
	ok "report merge of the collected reports carries the failure"
else
	bad "report merge of the collected reports" "$(ls "$TMP/out" 2>&1)" "$(head -5 "$TMP/out/fleet.txt" 2>&1)"
fi
stop "$pid"

echo "fleet-ansible: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
