# uringlint: GNU make. `make` builds ./uringlint; `make run` and `make check`
# install missing Debian packages first (as root), see `deps`.

VERSION := 0.1.0

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := liburing blkid json-c smartcols libproc2

# Debian packages, by what needs them: `make run` installs DEB_BUILD alone (to
# build and run: the compiler, the C library's headers, the libraries), `make
# check` adds DEB_TEST, `make check-fleet` and `make deb` DEB_FLEET, `make deps`
# (CI) all of them. tests/deps.sh proves that every header and library the build
# uses comes from DEB_BUILD or what it depends on.
DEB_BUILD := gcc libc6-dev linux-libc-dev make pkg-config liburing-dev libblkid-dev \
	libjson-c-dev libsmartcols-dev libproc2-dev
# Real io_uring applications for tests/e2e/apps_lib.sh: the -core packages ship
# mariadbd, mariadb-install-db and the client without mariadb-server's service,
# so installing them starts nothing; qemu-utils ships qemu-img, qemu-io, qemu-nbd;
# e2fsprogs makes the loop ext4 they run on; mpd reads its tracks through io_uring.
DEB_APPS := mariadb-server-core mariadb-client-core qemu-utils qemu-system-x86 e2fsprogs samba samba-vfs-modules smbclient \
	mpd
# The test tools; chromium renders --format html's page (tests/e2e/html.sh);
# sysstat's iostat is the scene's ground truth (tests/e2e/scene.sh).
DEB_TEST := libcmocka-dev fio xfsprogs jq util-linux procps sysstat strace linux-perf bc time libxml2-utils man-db bash-completion \
	clang libclang-rt-14-dev valgrind prometheus python3 chromium $(DEB_APPS)
# make deb and make check-fleet: the package build and lintian, systemd-analyze,
# node_exporter and Prometheus (promtool) the suite runs, Ansible for the playbook,
# and a Debian 12 guest under its own systemd for the units (debootstrap, nspawn).
DEB_FLEET := debhelper dpkg-dev fakeroot lintian systemd prometheus prometheus-node-exporter \
	ansible-core curl debootstrap systemd-container zstd
DEB_PKGS := $(DEB_BUILD) $(DEB_TEST) $(DEB_FLEET)
# make check-kernels: qemu, and busybox for the guest's userland.
DEB_KERNELS := qemu-system-x86 busybox-static e2fsprogs
# make check-repeat LOAD=...: the CPU and disk hogs.
DEB_REPEAT := stress-ng

WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
	-Wwrite-strings -Wvla -Wno-format-nonliteral
CFLAGS ?= -O2 -g
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror
endif
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
# The layers, each folder compiled with the include paths of the layers
# below it and its own, so an upward #include fails to build:
#   lib/      sysroot, helpers; apps/ netlink/ output/ procfs/ tracefs/
#   facts/    collectors: host, directory and process facts      (lib)
#   watch/    audit --watch: engine, session, output            (lib facts)
#   report/   findings, check metadata, the writers               (lib)
#   probe/    the built-in probe                                  (lib)
#   views/    the JSON forms of facts      (lib facts watch report probe)
#   checks/   the check table, judgments   (lib facts watch report probe)
#   cmd/      the commands                       (everything)
# Tests, fuzz harnesses and helpers see every layer.
# lib/ holds small helpers and, each in a subfolder with one header, its
# subsystems (apps, netlink, output, procfs, tracefs): one layer.
LIB_DIRS := lib $(patsubst %/,%,$(sort $(wildcard lib/*/)))
LIB_INC := $(addprefix -I,$(LIB_DIRS))
LAYER_lib = $(LIB_INC) -I$(B)/gen
LAYER_facts := $(LIB_INC) -Ifacts
LAYER_watch := $(LIB_INC) -Ifacts -Iwatch
LAYER_report := $(LIB_INC) -Ireport
LAYER_probe := $(LIB_INC) -Iprobe
LAYER_views := $(LIB_INC) -Ifacts -Iwatch -Ireport -Iprobe -Iviews
LAYER_checks := $(LIB_INC) -Ifacts -Iwatch -Ireport -Iprobe -Ichecks
LAYER_cmd := $(LAYER_checks) -Iviews -Icmd
INC = $(LAYER_cmd) -I$(B)/gen
ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) -D_GNU_SOURCE $(INC) \
	$(PKG_CFLAGS) -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)

B := build
LAYERS := lib facts watch report probe views checks
LIB_SRC := $(foreach l,$(LIB_DIRS) $(filter-out lib,$(LAYERS)),$(wildcard $(l)/*.c))
CMD_SRC := $(wildcard cmd/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(B)/%.o)
LIB_A := $(B)/liburinglint.a

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

.PHONY: all deps deps-run deps-check deps-fleet print-deb-build deps-kernels run check check-unit check-e2e check-kernels check-repeat check-valgrind check-fleet deb bench fuzz install uninstall clean FORCE
all: uringlint $(B)/uringlint.1 $(B)/uringlint.bash-completion

# The man page's SYNOPSIS, COMMANDS, GLOBAL OPTIONS and CHECKS sections and
# the bash completion come from the command, option and check tables,
# through the binary: they cannot drift from what it accepts.
MAN_PARTS := synopsis commands global-options
$(B)/uringlint.1: cmd/uringlint.1.in uringlint
	./uringlint checks --roff >$(B)/man-checks.roff
	$(foreach p,$(MAN_PARTS),./uringlint --generate man-$(p) >$(B)/man-$(p).roff &&) true
	sed -e 's/@VERSION@/$(VERSION)/' \
		-e '/^@CHECKS@$$/{r $(B)/man-checks.roff' -e 'd;}' \
		$(foreach p,$(MAN_PARTS),-e '/^@$(p)@$$/{r $(B)/man-$(p).roff' -e 'd;}') $< >$@

$(B)/uringlint.bash-completion: uringlint
	./uringlint --generate bash-completion >$@

# Rebuild everything when the flags change (SANITIZE=..., DEVELOPER=1).
$(B)/FLAGS: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(VERSION)' > $(B)/FLAGS.new
	@cmp -s $(B)/FLAGS.new $@ && rm -f $(B)/FLAGS.new || mv $(B)/FLAGS.new $@

$(B)/%.o: %.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<
$(foreach l,$(LAYERS) cmd,$(eval $(B)/$(l)/%.o: INC = $(LAYER_$(l))))
# tests/layers.sh asks for a layer's include paths.
layer-flags-%:
	@echo $(LAYER_$*) $(PKG_CFLAGS)

VERSION_DEFS = -DURINGLINT_VERSION='"$(VERSION)"' \
	-DLIBURING_VERSION='"$(shell $(PKG_CONFIG) --modversion liburing)"' \
	-DLIBPROC2_VERSION='"$(shell $(PKG_CONFIG) --modversion libproc2)"'
$(B)/lib/version.o: ALL_CFLAGS += $(VERSION_DEFS)

# lib/apps/app_fixes.tbl, the application fix table, compiled into lib/apps/app_fixes.c
# as one C string.
$(B)/gen/app_fixes.tbl.h: lib/apps/app_fixes.tbl
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@
$(B)/lib/apps/app_fixes.o $(B)/fuzz/lib/apps/app_fixes.o: $(B)/gen/app_fixes.tbl.h

$(LIB_A): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

uringlint: $(CMD_OBJ) $(LIB_A)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJ) $(LIB_A) $(PKG_LIBS) -lm

$(B)/tests/%: tests/unit/%.c $(LIB_A) $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(shell $(PKG_CONFIG) --cflags cmocka) -o $@ $< \
		$(filter $(B)/cmd/%.o,$^) $(LIB_A) \
		$(ALL_LDFLAGS) $(PKG_LIBS) $(shell $(PKG_CONFIG) --libs cmocka) -lm

# A unit test of a command's logic links the files that hold it, as a fuzz
# harness does (without main.c and the command table).
DIFF_CMD_SRC := cmd/diff_compare.c cmd/diff_procs.c cmd/merge_read.c cmd/messages.c
$(B)/tests/test_diff: $(DIFF_CMD_SRC:%.c=$(B)/%.o)

# Installs the Debian packages that are missing when run as root; otherwise
# prints the exact command and stops.
define install_missing
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || \
			missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" -ne 0 ]; then \
		echo "uringlint: missing Debian packages; run as root:" >&2; \
		echo "  apt-get install -y$$missing" >&2; exit 1; \
	fi; \
	echo "installing:$$missing"; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing
endef

deps:
	$(call install_missing,$(DEB_PKGS))

deps-run:
	$(call install_missing,$(DEB_BUILD))

deps-check:
	$(call install_missing,$(DEB_BUILD) $(DEB_TEST))

deps-fleet:
	$(call install_missing,$(DEB_BUILD) $(DEB_TEST) $(DEB_FLEET))

# For tests/deps.sh: the packages `make run` installs.
print-deb-build:
	@echo $(DEB_BUILD)

# The kernels of tests/kernels/kernels.list that are not installed are
# fetched (downloaded and unpacked into build/kernels/, not installed).
deps-kernels: deps-check
	$(call install_missing,$(DEB_KERNELS))
	@B=$(B) bash tests/kernels/fetch.sh

run: deps-run
	$(MAKE) uringlint
	./uringlint report --probe || [ $$? -eq 1 ]

check: deps-check
	$(MAKE) -j$$(nproc) uringlint $(B)/uringlint.1 $(B)/uringlint.bash-completion unit-bins $(E2E_HELPERS) $(REPLAY_BIN)
	@sh tests/run-all.sh $(UNIT_BIN)

unit-bins: $(UNIT_BIN)

# The unit binaries and the CLI, fixture, hostile, audit, probe and names suites under
# valgrind memcheck, and a third of the other suites, in turn by the day of the year
# (VALGRIND_ROTATION=all for every one): build without SANITIZE (the two do not mix).
check-valgrind: deps-check
	$(MAKE) -j$$(nproc) uringlint $(B)/uringlint.1 $(B)/uringlint.bash-completion unit-bins $(E2E_HELPERS)
	@bash tests/valgrind.sh $(UNIT_BIN)

# Every parser has a harness in tests/fuzz/. Built with $(CC) and replay.c it
# runs the saved regression inputs in `make check`; built with clang and
# libFuzzer (`make fuzz FUZZ_SECONDS=N`) it fuzzes from testdata seeds.
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_CMD_SRC := cmd/config.c cmd/diff_compare.c cmd/diff_procs.c cmd/merge_read.c cmd/messages.c
REPLAY_BIN := $(FUZZ_NAMES:%=$(B)/tests/replay_%)

$(B)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_CMD_SRC:%.c=$(B)/%.o) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Itests/fuzz -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 20
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 $(WARNINGS) -O1 -g $(FUZZ_SAN) -D_GNU_SOURCE $(LAYER_cmd) \
	-Itests/fuzz -I$(B)/gen $(PKG_CFLAGS)
FUZZ_OBJ := $(patsubst %.c,$(B)/fuzz/%.o,$(LIB_SRC) $(FUZZ_CMD_SRC))
FUZZ_BIN := $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)
.SECONDARY: $(FUZZ_OBJ)

$(B)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(B)/fuzz/lib/version.o: FUZZ_CFLAGS += $(VERSION_DEFS)

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS) -lm

fuzz: deps-check
	$(MAKE) -j$$(nproc) $(FUZZ_BIN)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) B=$(B) bash tests/fuzz/run.sh

check-unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

E2E_HELPERS := $(B)/tests/seccomp-deny $(B)/tests/idle-named $(B)/tests/pathology $(B)/tests/ring-need \
	$(B)/tests/kill-on-publish.so

PATHOLOGY_SRC := tests/pathology/pathology.c tests/pathology/punt_causes.c tests/pathology/no_ring.c \
	tests/pathology/thread_model.c tests/pathology/net_sockets.c tests/pathology/net_traffic.c \
	tests/pathology/net_checks.c

$(B)/tests/pathology: $(PATHOLOGY_SRC) tests/pathology/pathology.h $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(PATHOLOGY_SRC) $(ALL_LDFLAGS) $(shell $(PKG_CONFIG) --libs liburing)

$(B)/tests/ring-need: tests/e2e/ring-need.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) $(shell $(PKG_CONFIG) --libs liburing)

# An LD_PRELOAD shim: built without the sanitizers, which want their own runtime first.
$(B)/tests/kill-on-publish.so: tests/e2e/kill-on-publish.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 -Wall -Wextra -o $@ $<

$(B)/tests/seccomp-deny: tests/e2e/seccomp-deny.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

$(B)/tests/mem-write: tests/fleet/mem-write.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

$(B)/tests/idle-named: tests/e2e/idle-named.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# The live suite on Debian 12's 6.1 kernel under qemu, against the host kernel.
check-kernels: deps-kernels
	$(MAKE) -j$$(nproc) uringlint $(E2E_HELPERS)
	@bash tests/kernels/run.sh
	@bash tests/kernels/vm_disk.sh

check-e2e: uringlint $(E2E_HELPERS)
	@bash tests/e2e/run.sh

# The e2e suites N rounds in a row (N=10), optionally under LOAD=cpu,disk:
# every case whose verdict changes between rounds is listed.
check-repeat: deps-check
	$(call install_missing,$(DEB_REPEAT))
	$(MAKE) -j$$(nproc) uringlint $(E2E_HELPERS)
	@N=$(N) LOAD=$(LOAD) SUITES="$(SUITES)" bash tests/repeat.sh

$(B)/tests/read_floor: tests/bench/read_floor.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

$(B)/tests/audit_floor: tests/bench/audit_floor.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

$(B)/tests/sockets_floor: tests/bench/sockets_floor.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# Speed next to the floor, side by side in one run; informs, never gates.
bench: uringlint $(B)/tests/read_floor $(B)/tests/audit_floor $(B)/tests/pathology $(B)/tests/sockets_floor
	@bash tests/bench/preflight.sh
	@bash tests/bench/audit.sh
	@bash tests/bench/probe_vs_fio.sh
	@bash tests/bench/watch.sh
	@bash tests/bench/watch_many.sh
	@bash tests/bench/threads.sh
	@bash tests/bench/neighbour.sh
	@bash tests/bench/ringmap.sh
	@bash tests/bench/sockets.sh
	@bash tests/bench/probe_net.sh
	@bash tests/bench/diff.sh

# The Debian package, built by dpkg-buildpackage from a copy of the tree in
# $(B)/deb (its clean step would empty this tree's build/), the .deb there.
DEB_SRC := $(B)/deb/uringlint-$(VERSION)
deb:
	$(call install_missing,$(DEB_BUILD) debhelper dpkg-dev fakeroot)
	rm -rf $(B)/deb && mkdir -p $(DEB_SRC)
	tar -c --exclude=./build --exclude=./uringlint --exclude=./.git . | tar -x -C $(DEB_SRC)
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b
	@ls $(B)/deb/*.deb

# The package, the systemd units, the Prometheus rules and metrics, node_exporter
# and Prometheus end to end, and the Ansible playbook (tests/fleet/).
check-fleet: deps-fleet
	$(MAKE) uringlint $(B)/uringlint.1 $(B)/uringlint.bash-completion $(B)/tests/pathology \
		$(B)/tests/mem-write
	$(MAKE) deb
	@bash tests/fleet/run.sh

install: uringlint $(B)/uringlint.1 $(B)/uringlint.bash-completion
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 0755 uringlint $(DESTDIR)$(BINDIR)/uringlint
	install -m 0644 $(B)/uringlint.1 $(DESTDIR)$(MANDIR)/man1/uringlint.1
	install -m 0644 $(B)/uringlint.bash-completion $(DESTDIR)$(COMPLETIONDIR)/uringlint

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/uringlint $(DESTDIR)$(MANDIR)/man1/uringlint.1 \
		$(DESTDIR)$(COMPLETIONDIR)/uringlint

clean:
	rm -rf $(B) uringlint

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d)
