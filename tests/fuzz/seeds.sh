# Sourced by run.sh and replay.sh: the inputs each harness starts from,
# the files its parser reads in real use (testdata), hand-written seeds,
# and the regression inputs of earlier findings.
seeds() { # NAME: the seed files of one harness
	case $1 in
	fdinfo) find testdata -path '*/fdinfo/*' -type f ;;
	status_limits) find testdata -type f -path '*/proc/*' \( -name status -o -name limits \) ;;
	stat) find testdata -name stat -path '*/proc/[0-9]*' -type f ;;
	cpulist) find testdata -type f \( -name online -o -name possible -o -name isolated \
		-o -name nohz_full -o -name 'smp_affinity*' -o -name cpulist \) ;;
	cmdline) find testdata -path '*/proc/cmdline' -type f ;;
	interrupts) find testdata -path '*/proc/interrupts' -type f ;;
	mountinfo) find testdata -name mountinfo -type f ;;
	maps) find testdata -name maps -path '*/proc/[0-9]*' -type f ;;
	kernel_version) find testdata -type f \( -name osrelease -o -path '*/proc/version' \
		-o -name version_signature \) ;;
	merge) find tests/e2e/expected -name '*.json' -type f ;;
	escape) find testdata -name comm -type f ;;
	app_fixes) echo lib/apps/app_fixes.tbl ;;
	net_inet) find testdata -type f -path '*/proc/[0-9]*/net/*' \( -name 'tcp*' -o -name 'udp*' \
		-o -name 'raw*' \) ;;
	net_unix) find testdata -type f -path '*/proc/[0-9]*/net/unix' ;;
	netstat) find testdata -type f -path '*/proc/[0-9]*/net/netstat' ;;
	cgroup_owner) find testdata -type f -path '*/proc/[0-9]*/cgroup' ;;
	qemu_drive) find testdata -type f -path '*/proc/[0-9]*/cmdline' ;;
	net_route) find testdata -type f \( -path '*/proc/net/route' -o -path '*/proc/[0-9]*/cmdline' \) ;;
	esac
	[ -d "tests/fuzz/seeds/$1" ] && find "tests/fuzz/seeds/$1" -type f
	[ -d "tests/fuzz/regressions/$1" ] && find "tests/fuzz/regressions/$1" -type f
}
