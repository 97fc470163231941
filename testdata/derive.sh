#!/bin/sh
# Trims the captured trees and derives the edited ones from host-6.18, so
# every fixture can be rebuilt from a fresh capture:
#
#   sh testdata/capture.sh testdata/host-6.18          (with an XFS loop mount at /mnt/xfs)
#   sh testdata/capture.sh testdata/uring-disabled-2   (while kernel.io_uring_disabled=2)
#   prlimit --memlock=65536:65536 sh testdata/capture.sh testdata/old-5.10-memlock-64k
#   sh testdata/capture.sh testdata/proc-6.18-no-ring PID   (PID: build/tests/pathology no-ring)
#   sh testdata/capture.sh testdata/proc-6.18-sockets PID   (PID: tests/e2e/sockets_server.py under unshare -n)
#   sh testdata/capture.sh testdata/vm-6.18-virtio-net      (a VM whose default route is a virtio-net NIC)
#   sh testdata/derive.sh
#
# Each edit below is what its tree's README row says it shows.
set -eu
cd "$(dirname "$0")"

# --- trimming: nothing of the capturing machine's own plumbing ----------------
trim() {
	t=$1
	# Mounts of the capture host's tooling, and init's arguments after "--".
	for mi in "$t"/proc/self/mountinfo "$t"/proc/[0-9]*/mountinfo; do
		[ -f "$mi" ] || continue
		grep -v ' /mnt/sandboxing' "$mi" >"$t/mi.tmp" && mv "$t/mi.tmp" "$mi"
	done
	echo "console=ttyS0 quiet reboot=k panic=1 random.trust_cpu=1" >"$t/proc/cmdline"
	sed -i 's/(builder@[^)]*)/(builder@localhost)/' "$t/proc/version"
	echo init >"$t/proc/1/comm"
}
for t in host-6.18 uring-disabled-2 old-5.10-memlock-64k proc-6.18-no-ring proc-6.18-sockets \
	vm-6.18-virtio-net; do
	trim "$t"
done

# git keeps no empty directory: the capture's tx-0 holds nothing uringlint read
# (a single-queue device has no xps_cpus), so it keeps the tx_timeout the VM
# showed, and a checkout still has the queue.
echo 0 >vm-6.18-virtio-net/sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth0/queues/tx-0/tx_timeout

# --- old-5.10-memlock-64k: Debian 11's kernel identity, no 6.6 sysctls --------
t=old-5.10-memlock-64k
echo 5.10.0-23-amd64 >"$t/proc/sys/kernel/osrelease"
echo 'Linux version 5.10.0-23-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils for Debian) 2.35.2) #1 SMP Debian 5.10.179-1 (2023-05-12)' >"$t/proc/version"
echo bullseye-db >"$t/proc/sys/kernel/hostname"
rm -f "$t/proc/sys/kernel/io_uring_disabled" "$t/proc/sys/kernel/io_uring_group"

fresh() { # fresh NAME: a copy of host-6.18 to edit
	rm -rf "$1"
	cp -a host-6.18 "$1"
	echo "derived from host-6.18 by derive.sh: $2" >>"$1/CAPTURE"
}

# irqbalance_proc TREE: the packaged daemon as pid 4242, as proc shows it: its comm, its
# status (root's, from the capture's own) and its program (proc/PID/exe).
irqbalance_proc() {
	mkdir -p "$1/proc/4242"
	echo irqbalance >"$1/proc/4242/comm"
	sed -e 's/^Name:.*/Name:\tirqbalance/' -e 's/^\(Tgid\|Pid\|NStgid\|NSpid\):.*/\1:\t4242/' \
		-e 's/^PPid:.*/PPid:\t1/' host-6.18/proc/self/status >"$1/proc/4242/status"
	ln -sfn /usr/sbin/irqbalance "$1/proc/4242/exe"
}

irq_line() { # irq_line IRQ CPU NAME: a PCI-MSIX line and its affinity files
	t=$1
	printf '%4s:          0       4711  PCI-MSIX-0000:00:06.0  %s-edge      %s\n' "$2" "$(($2 - 50))" "$4" \
		>>"$t/proc/interrupts"
	mkdir -p "$t/proc/irq/$2"
	echo "$3" >"$t/proc/irq/$2/effective_affinity_list"
	echo "$3" >"$t/proc/irq/$2/smp_affinity_list"
}

# --- isolated-nvme-irq: CPU 1 isolated, an NVMe queue IRQ still on it ----------
t=isolated-nvme-irq
fresh "$t" "isolcpus/nohz_full/rcu_nocbs=1 without managed_irq; NVMe IRQs on CPUs 0 and 1; irqbalance running with no ban; powersave on CPU 1"
echo "console=ttyS0 quiet isolcpus=domain,1 nohz_full=1 rcu_nocbs=1" >"$t/proc/cmdline"
echo 1 >"$t/sys/devices/system/cpu/isolated"
echo 1 >"$t/sys/devices/system/cpu/nohz_full"
irq_line "$t" 50 0 nvme0q0
irq_line "$t" 51 0 nvme0q1
irq_line "$t" 52 1 nvme0q2
mkdir -p "$t/etc/default"
irqbalance_proc "$t"
printf '# irqbalance is a daemon process that distributes interrupts across CPUs.\n#IRQBALANCE_BANNED_CPULIST=\n' \
	>"$t/etc/default/irqbalance"
for cpu in 0 1; do
	mkdir -p "$t/sys/devices/system/cpu/cpu$cpu/cpufreq"
done
echo performance >"$t/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
echo powersave >"$t/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"

# --- numa-remote: two nodes, the root disk on node 1 ----------------------------
t=numa-remote
fresh "$t" "two NUMA nodes (CPU 0 on node 0, CPU 1 on node 1), vda's virtio device on node 1"
echo 0-1 >"$t/sys/devices/system/node/online"
echo 0 >"$t/sys/devices/system/node/node0/cpulist"
mkdir -p "$t/sys/devices/system/node/node1"
echo 1 >"$t/sys/devices/system/node/node1/cpulist"
vdev=$(readlink -f "$t/sys/block/vda/device")
echo 1 >"$vdev/numa_node"

# --- md-stacked: /data on an md RAID of two disks -------------------------------
t=md-stacked
fresh "$t" "/data is XFS on md0 (RAID over sda and sdb), mounted noatime without lazytime"
md=sys/devices/virtual/block/md0
mkdir -p "$t/$md/queue" "$t/$md/slaves"
printf 'MAJOR=9\nMINOR=0\nDEVNAME=md0\nDEVTYPE=disk\n' >"$t/$md/uevent"
echo 9:0 >"$t/$md/dev"
echo 4096 >"$t/$md/queue/logical_block_size"
echo 4096 >"$t/$md/queue/physical_block_size"
echo 1024 >"$t/$md/queue/max_sectors_kb"
echo none >"$t/$md/queue/scheduler"
echo 0 >"$t/$md/queue/rotational"
ln -s ../../../pci0000:00/0000:00:07.0/block/sda "$t/$md/slaves/sda"
ln -s ../../../pci0000:00/0000:00:08.0/block/sdb "$t/$md/slaves/sdb"
ln -s ../../devices/virtual/block/md0 "$t/sys/dev/block/9:0"
ln -s ../devices/virtual/block/md0 "$t/sys/block/md0"
ln -s ../../devices/virtual/block/md0 "$t/sys/class/block/md0"
echo '60 27 9:0 / /data rw,noatime - xfs /dev/md0 rw,attr2,inode64,sunit=1024,swidth=2048,noquota' \
	>>"$t/proc/self/mountinfo"

# --- kernel-5.15: Ubuntu 22.04's kernel, before io_uring_disabled --------------
t=kernel-5.15
fresh "$t" "Ubuntu 22.04's 5.15.0-91-generic (real sublevel 5.15.131 in version_signature), no 6.6 sysctls"
echo 5.15.0-91-generic >"$t/proc/sys/kernel/osrelease"
echo 'Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023' \
	>"$t/proc/version"
echo 'Ubuntu 5.15.0-91.101-generic 5.15.131' >"$t/proc/version_signature"
echo jammy-db >"$t/proc/sys/kernel/hostname"
rm -f "$t/proc/sys/kernel/io_uring_disabled" "$t/proc/sys/kernel/io_uring_group"

# --- nvme-no-poll: /srv/db on an NVMe partition, nvme.poll_queues=0 -------------
t=nvme-no-poll
fresh "$t" "/srv/db is XFS (lazytime) on nvme0n1p1; the nvme driver has poll_queues=0"
pci=sys/devices/pci0000:00/0000:00:06.0
ns=$pci/nvme/nvme0/nvme0n1
mkdir -p "$t/$ns/queue" "$t/$ns/nvme0n1p1" "$t/$ns/slaves" "$t/sys/module/nvme/parameters"
printf 'MAJOR=259\nMINOR=0\nDEVNAME=nvme0n1\nDEVTYPE=disk\n' >"$t/$ns/uevent"
echo 259:0 >"$t/$ns/dev"
printf 'MAJOR=259\nMINOR=1\nDEVNAME=nvme0n1p1\nDEVTYPE=partition\n' >"$t/$ns/nvme0n1p1/uevent"
echo 259:1 >"$t/$ns/nvme0n1p1/dev"
for kv in logical_block_size=4096 physical_block_size=4096 max_sectors_kb=128 \
	nr_requests=1023 dma_alignment=3 io_poll=0 rotational=0; do
	echo "${kv#*=}" >"$t/$ns/queue/${kv%%=*}"
done
echo '[none] mq-deadline' >"$t/$ns/queue/scheduler"
ln -s ../../nvme0 "$t/$ns/device"
ln -s ../../../0000:00:06.0 "$t/$pci/nvme/nvme0/device"
echo 0 >"$t/$pci/numa_node"
echo 0 >"$t/sys/module/nvme/parameters/poll_queues"
ln -s ../../devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1 "$t/sys/dev/block/259:0"
ln -s ../../devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1/nvme0n1p1 "$t/sys/dev/block/259:1"
ln -s ../devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1 "$t/sys/block/nvme0n1"
ln -s ../../devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1 "$t/sys/class/block/nvme0n1"
ln -s ../../devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1/nvme0n1p1 "$t/sys/class/block/nvme0n1p1"
echo '61 27 259:1 / /srv/db rw,noatime,lazytime - xfs /dev/nvme0n1p1 rw,attr2,inode64,noquota' \
	>>"$t/proc/self/mountinfo"
# --- nic-8q-tuned: a 10-CPU host with an 8-channel mlx5 NIC as perftune.py leaves it --
# From vm-6.18-virtio-net, whose default route is eth0: eth0 becomes a ConnectX
# (mlx5_core) at 0000:3b:00.0 with 8 combined channels, as `ethtool -L eth0
# combined 8` makes them, the other devices kept. The plan it is judged against:
# SQPOLL on CPU 1, eight workers on CPUs 2-9.
fresh_from() { # fresh_from SRC NAME WHY: a copy of a tree to edit
	rm -rf "$2"
	cp -a "$1" "$2"
	echo "derived from $1 by derive.sh: $3" >>"$2/CAPTURE"
}

widen_interrupts() { # widen_interrupts FILE N: the capture's 2 CPU columns become N, the rest 0
	awk -v n="$2" 'NR == 1 { printf "    "; for (i = 0; i < n; i++) printf " %10s", "CPU" i; print ""; next }
		{ out = sprintf("%4s", $1); c = 0
		  for (i = 2; i <= NF && c < 2 && $i ~ /^[0-9]+$/; i++) { out = out sprintf(" %10s", $i); c++ }
		  for (k = c; c == 2 && k < n; k++) out = out sprintf(" %10s", 0)
		  for (; i <= NF; i++) out = out " " $i
		  print out }' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

mlx5_irq() { # mlx5_irq TREE IRQ NAME CPU: a vector of 0000:3b:00.0, delivered to CPU
	t=$1
	awk -v irq="$2" -v name="$3" -v cpu="$4" 'BEGIN {
		printf "%4s:", irq; for (i = 0; i < 10; i++) printf " %10s", i == cpu ? 52311 : 0
		printf " PCI-MSIX-0000:3b:00.0 %s-edge      %s\n", irq - 60, name }' >>"$t/proc/interrupts"
	mkdir -p "$t/proc/irq/$2"
	echo "$4" >"$t/proc/irq/$2/effective_affinity_list"
	echo "$4" >"$t/proc/irq/$2/smp_affinity_list"
	echo msix >"$t/$nic/device/msi_irqs/$2"
}

t=nic-8q-tuned
fresh_from vm-6.18-virtio-net "$t" "10 CPUs; eth0 an 8-channel mlx5 NIC: queue IRQs 61-68 one on each of CPUs 2-9, RPS to CPUs 2-9 with RFS (32768 entries, 4096 a queue), XPS tx-N on CPU 2+N, irqbalance banning CPU 1 and IRQs 61-68, somaxconn and tcp_max_syn_backlog 4096, CPU 1 isolated"
for f in online possible; do echo 0-9 >"$t/sys/devices/system/cpu/$f"; done
echo 0-9 >"$t/sys/devices/system/node/node0/cpulist"
echo 1 >"$t/sys/devices/system/cpu/isolated"
echo 1 >"$t/sys/devices/system/cpu/nohz_full"
echo "console=ttyS0 quiet isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1" >"$t/proc/cmdline"
grep -v 'virtio2-' "$t/proc/interrupts" >"$t/proc/interrupts.tmp" && mv "$t/proc/interrupts.tmp" "$t/proc/interrupts"
rm -rf "$t/proc/irq/38" "$t/proc/irq/39"
widen_interrupts "$t/proc/interrupts" 10
echo 0 >"$t/proc/irq/36/effective_affinity_list"	# vda's queue off the SQPOLL CPU
pci=sys/devices/pci0000:00/0000:3b:00.0
nic=$pci/net/eth0
rm -rf "$t/sys/devices/pci0000:00/0000:00:03.0" "$t/sys/class/net/eth0"
mkdir -p "$t/$nic/queues" "$t/$pci/msi_irqs" "$t/sys/bus/pci/drivers/mlx5_core"
ln -s ../../../0000:3b:00.0 "$t/$nic/device"
ln -s ../../../bus/pci/drivers/mlx5_core "$t/$pci/driver"
ln -s ../../devices/pci0000:00/0000:3b:00.0/net/eth0 "$t/sys/class/net/eth0"
mlx5_irq "$t" 60 mlx5_async0@pci:0000:3b:00.0 0
for q in 0 1 2 3 4 5 6 7; do
	mlx5_irq "$t" $((61 + q)) "mlx5_comp$q@pci:0000:3b:00.0" $((2 + q))
	mkdir -p "$t/$nic/queues/rx-$q" "$t/$nic/queues/tx-$q"
	echo 3fc >"$t/$nic/queues/rx-$q/rps_cpus"
	echo 4096 >"$t/$nic/queues/rx-$q/rps_flow_cnt"
	printf '%03x\n' $((1 << (2 + q))) >"$t/$nic/queues/tx-$q/xps_cpus"
done
echo 32768 >"$t/proc/sys/net/core/rps_sock_flow_entries"
echo 4096 >"$t/proc/sys/net/ipv4/tcp_max_syn_backlog"
mkdir -p "$t/etc/default"
irqbalance_proc "$t"
printf '/usr/sbin/irqbalance\0--foreground\0' >"$t/proc/4242/cmdline"
for q in 0 1 2 3 4 5 6 7; do printf -- '--banirq=%s\0' $((61 + q)) >>"$t/proc/4242/cmdline"; done
printf 'IRQBALANCE_BANNED_CPULIST=1\nIRQBALANCE_ARGS="--banirq=61 --banirq=62 --banirq=63 --banirq=64 --banirq=65 --banirq=66 --banirq=67 --banirq=68"\n' \
	>"$t/etc/default/irqbalance"

# --- nic-4q-mistuned: the same NIC cut to 4 channels and left half tuned ----------
t=nic-4q-mistuned
fresh_from nic-8q-tuned "$t" "eth0 cut to 4 channels (queues 4-7 and IRQs 65-68 gone); IRQ 61 on CPU 0, IRQ 62 on the SQPOLL CPU 1, IRQs 63 and 64 both on CPU 2; RPS to CPUs 2-9 on rx-0 and rx-1 only, rps_sock_flow_entries 0; XPS off; irqbalance without --banirq; somaxconn 128, tcp_max_syn_backlog 512"
nic=sys/devices/pci0000:00/0000:3b:00.0/net/eth0
for q in 4 5 6 7; do
	irq=$((61 + q))
	rm -rf "$t/$nic/queues/rx-$q" "$t/$nic/queues/tx-$q" "$t/proc/irq/$irq" "$t/$nic/device/msi_irqs/$irq"
	grep -v "^ *$irq:" "$t/proc/interrupts" >"$t/proc/interrupts.tmp" && mv "$t/proc/interrupts.tmp" "$t/proc/interrupts"
done
for irq_cpu in 61:0 62:1 63:2 64:2; do
	echo "${irq_cpu#*:}" >"$t/proc/irq/${irq_cpu%:*}/effective_affinity_list"
	echo "${irq_cpu#*:}" >"$t/proc/irq/${irq_cpu%:*}/smp_affinity_list"
done
for q in 2 3; do echo 000 >"$t/$nic/queues/rx-$q/rps_cpus"; done
for q in 0 1 2 3; do echo 000 >"$t/$nic/queues/tx-$q/xps_cpus"; done
echo 0 >"$t/proc/sys/net/core/rps_sock_flow_entries"
echo 128 >"$t/proc/sys/net/core/somaxconn"
echo 512 >"$t/proc/sys/net/ipv4/tcp_max_syn_backlog"
printf '/usr/sbin/irqbalance\0--foreground\0' >"$t/proc/4242/cmdline"
printf 'IRQBALANCE_BANNED_CPULIST=1\n' >"$t/etc/default/irqbalance"
echo "derived trees written"
