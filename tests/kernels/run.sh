#!/bin/bash
# make check-kernels: the live tests on other kernels than the host's. The
# same guest.sh runs natively on the host kernel and, under qemu (software
# emulation), on each kernel of kernels.list, on copies of the same ext4
# image (with an XFS image inside); the verdicts are compared finding by
# finding against NAME.expect. The guest sends its results over the serial
# console. Needs root (loop mounts), qemu-system-x86, busybox-static,
# e2fsprogs and xfsprogs; a kernel that is neither installed nor fetched is
# skipped with the reason (a failure under CI=true, where it must run).
#
#   KEEP=DIR keeps each kernel's unpacked results (and its capture) in DIR.
set -u
cd "$(dirname "$0")/../.." || exit 2

. tests/e2e/lib.sh

K=tests/kernels
mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT

# missing WHAT WHY: a skip, or under CI a failure, since CI must prove the kernels.
missing() {
	if [ "${CI:-}" = true ]; then bad "$1" "$2 (CI must run it)"; else skip "$1" "$2"; fi
}
finish() {
	echo "kernels: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

if [ "$(id -u)" -ne 0 ]; then
	missing "kernel matrix" "needs root to loop-mount the test images"
	finish
fi
for tool in qemu-system-x86_64 mkfs.ext4 mkfs.xfs; do
	command -v "$tool" >/dev/null || { missing "kernel matrix" "$tool is missing"; finish; }
done
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx cpio ||
	{ missing "kernel matrix" "/bin/busybox (busybox-static) is missing"; finish; }

# --- the images: ext4 with a work directory and an XFS image inside -----------------
mkdir -p "$TMP/disk/work"
truncate -s 320M "$TMP/disk/xfs.img" && mkfs.xfs -q "$TMP/disk/xfs.img" &&
	truncate -s 1G "$TMP/ext4.img" && mkfs.ext4 -q -d "$TMP/disk" "$TMP/ext4.img" ||
	{ bad "test images"; finish; }
rm -rf "$TMP/disk"

# --- the host kernel, natively ------------------------------------------------------
cp --sparse=always "$TMP/ext4.img" "$TMP/host.img"
mkdir -p "$TMP/h" "$TMP/hx"
mount -o loop "$TMP/host.img" "$TMP/h" && mounted+=("$TMP/h") &&
	mount -o loop "$TMP/h/xfs.img" "$TMP/hx" && mounted+=("$TMP/hx") ||
	{ bad "host: loop-mount the test images"; finish; }
UL=$BIN PATHO=$HELPERS/pathology sh "$K/guest.sh" "$TMP/h/work" "$TMP/hx" >"$TMP/host.log" 2>&1
umount "$TMP/hx" "$TMP/h" && mounted=()
sh "$K/unframe.sh" "$TMP/host.log" "$TMP/host"
if [ -f "$TMP/host/done" ]; then
	ok "host $(uname -r): guest.sh ran natively"
else
	bad "host $(uname -r): guest.sh ran natively" "$(tail -n 20 "$TMP/host.log")"
	finish
fi

# rows DIR CASE DATA XFS: one line per finding, "id<TAB>subject<TAB>status<TAB>message",
# with what differs between two machines of the same case taken out of the subject
# (pids, tids, CPUs, socket inodes, the ephemeral port a listener was given).
rows() {
	jq -r --arg d "$3" --arg x "$4" '.findings[] | [.id,
		(.subject | split($d) | join("EXT4") | split($x) | join("XFS") |
		 gsub("pid [0-9]+"; "pid") | gsub("tid [0-9]+"; "tid") | gsub(" cpu [0-9]+"; "") |
		 gsub("socket:\\[[0-9]+\\]"; "socket:[INODE]") | gsub(":[0-9]+$"; ":PORT")),
		.status, (.message | gsub("[\t\n]"; " "))] | @tsv' "$1/$2"
}

# rule EXPECT CASE ID: the first machine, differs or says line for this finding, as
# "KIND<TAB>STATUS<TAB>MESSAGE-ERE" (says: "says<TAB>MESSAGE-ERE"); nothing if none.
rule() {
	local kind g i s m
	while IFS=$'\t' read -r kind g i s m; do
		case $kind in
		machine) [ "$g" = "$3" ] && { printf 'machine\n'; return; } ;;
		differs) [[ $2 == $g && $3 == $i ]] && { printf 'differs\t%s\t%s\n' "$s" "$m"; return; } ;;
		says) [[ $2 == $g && $3 == $i ]] && { printf 'says\t%s\n' "$s"; return; } ;;
		esac
	done <"$1"
}

# compare NAME CASE: the kernel's findings for CASE against the host's and NAME.expect.
compare() {
	local name=$1 c=$2 exp=$K/$1.expect why="" id subj st msg kind s m hs key
	declare -A host=() seen=()
	while IFS=$'\t' read -r id subj st msg; do host["$id|$subj"]=$st; done \
		< <(rows "$TMP/host" "$c" "$TMP/h/work" "$TMP/hx")
	while IFS=$'\t' read -r id subj st msg; do
		seen["$id|$subj"]=1
		hs=${host["$id|$subj"]:-none}
		IFS=$'\t' read -r kind s m < <(rule "$exp" "$c" "$id"; echo)
		case $kind in
		machine)
			[ "$st" = error ] && why+="$id ($subj): error: $msg"$'\n' ;;
		differs)
			[[ $st =~ ^($s)$ && $msg =~ $m ]] ||
				why+="$id ($subj): $st, wanted $s matching /$m/: $msg"$'\n' ;;
		says)
			[[ $st == "$hs" && $msg =~ $s ]] ||
				why+="$id ($subj): $st (host $hs), wanted /$s/: $msg"$'\n' ;;
		*)
			[ "$st" = "$hs" ] || why+="$id ($subj): $st here, $hs on the host: $msg"$'\n' ;;
		esac
	done < <(rows "$TMP/$name" "$c" /mnt/data/work /mnt/xfs)
	# What the host judged and this kernel did not report at all (a rule may rename it).
	for key in "${!host[@]}"; do
		[ -n "${seen[$key]:-}" ] && continue
		[ -n "$(rule "$exp" "$c" "${key%%|*}")" ] && continue
		why+="$key: judged on the host, missing here"$'\n'
	done
	if [ -z "$why" ]; then
		ok "$name: $c matches the host, and differs where the kernel does"
	else
		bad "$name: $c" "${why%$'\n'}"
	fi
}

# --- each kernel under qemu ---------------------------------------------------------------
while read -r name pattern; do
	case $name in '' | '#'*) continue ;; esac
	if ! where=$(B=build sh "$K/locate.sh" "$name" "$pattern" 2>"$TMP/locate.err"); then
		missing "$name" "$(cat "$TMP/locate.err")"
		continue
	fi
	set -- $where
	vmlinuz=$1 mods=$2
	if ! bash "$K/initramfs.sh" "$mods" "$TMP/$name.cpio.gz" "$BIN" "$HELPERS/pathology" 2>"$TMP/initramfs.err"; then
		bad "$name: initramfs" "$(cat "$TMP/initramfs.err")"
		continue
	fi
	cp --sparse=always "$TMP/ext4.img" "$TMP/$name.img"
	# -accel tcg: nested KVM is not dependable on CI machines; emulation boots in seconds.
	timeout 600 qemu-system-x86_64 -accel tcg -cpu max -m 768 -smp 2 -kernel "$vmlinuz" \
		-initrd "$TMP/$name.cpio.gz" -append "console=ttyS0 quiet loglevel=1 panic=-1" \
		-drive "file=$TMP/$name.img,format=raw,if=virtio" -nographic -no-reboot \
		</dev/null >"$TMP/$name.serial" 2>&1
	rc=$?
	sh "$K/unframe.sh" "$TMP/$name.serial" "$TMP/$name"
	if [ ! -f "$TMP/$name/done" ]; then
		bad "$name: boots and runs guest.sh" "qemu exit $rc" "$(tail -n 30 "$TMP/$name.serial")"
		continue
	fi
	ok "$name: boots $(cat "$TMP/$name/kernel") and runs guest.sh$([ -s "$TMP/$name/notes" ] && echo " ($(tr '\n' ' ' <"$TMP/$name/notes"))")"
	for f in "$TMP"/host/*.status; do
		c=$(basename "$f" .status)
		case $c in *.stderr) continue ;; esac
		if [ ! -f "$TMP/$name/$c" ] || ! jq -e .findings "$TMP/$name/$c" >/dev/null 2>&1; then
			bad "$name: $c" "no JSON from the guest" "$(cat "$TMP/$name/$c.stderr" "$TMP/$name/start-"* 2>/dev/null | head -5)"
			continue
		fi
		compare "$name" "$c"
	done
	while IFS=$'\t' read -r kind c expr; do
		[ "$kind" = json ] || continue
		jq -e "$expr" "$TMP/$name/$c" >/dev/null 2>&1 && ok "$name: $c: $expr" ||
			bad "$name: $c: $expr" "$(jq -c "$expr" "$TMP/$name/$c" 2>&1 | head -c 300)"
	done <"$K/$name.expect"
	if [ -n "${KEEP:-}" ]; then
		mkdir -p "$KEEP/$name" && cp -r "$TMP/$name/." "$KEEP/$name/"
	fi
done <"$K/kernels.list"

finish
