# lsmconf: conformance and permission tests for Linux Security Modules.
#
#   make run       run the suites on debian:trixie and debian:sid and compare
#   make compare A=SPEC B=SPEC
#   make bench A=SPEC B=SPEC   (send cost, boots A -> B -> A2)
#   make msgcost K="SPEC..."   (SELinux msgq cost vs policy categories)
#   make mutate                (build every AppArmor mutant, check each is killed)
#   make check     unit tests, in-tree build check, end-to-end boots
#
# See README.md.

CC ?= gcc
CFLAGS ?= -O2 -g
OUT := build
A ?= debian:trixie
B ?= debian:sid
K ?= debian:trixie debian:sid
RUN_ARGS ?=

# One folder a layer, each above the ones it may call (see README.md,
# "Layout"): cli -> session -> vm -> provision -> lib; session -> results;
# cli -> analysis. Includes name the folder: "provision/provision.h".
RUNNER_HDRS := $(wildcard runner/*/*.h)
RUNNER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Irunner -DLSMCONF_ROOT='"$(CURDIR)"'
layer_objs = $(patsubst runner/%.c,$(OUT)/obj/%.o,$(wildcard runner/$(1)/*.c))
LIB_OBJS := $(call layer_objs,lib)
PROVISION_OBJS := $(call layer_objs,provision) $(LIB_OBJS)
VM_OBJS := $(call layer_objs,vm) $(PROVISION_OBJS)
RESULTS_OBJS := $(call layer_objs,results) $(LIB_OBJS)
ANALYSIS_OBJS := $(call layer_objs,analysis) $(LIB_OBJS)
SESSION_OBJS := $(call layer_objs,session) $(VM_OBJS) $(RESULTS_OBJS)
CLI_OBJS := $(call layer_objs,cli) $(SESSION_OBJS) $(ANALYSIS_OBJS)
RUNNER_LIBS := -larchive -lcrypto -lm
# Asked when a unit test links (=, not :=): Check may only be installed
# by the $(DEPS) stamp of this very make.
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
UNIT_TESTS := $(patsubst runner/tests/%.c,$(OUT)/tests/%,$(wildcard runner/tests/test_*.c))
LSMCONF := $(OUT)/lsmconf
# The Debian packages of runner/packages.txt, checked (and installed when
# root) once, before the first compile: everything that compiles or runs
# depends on this stamp, order-only where a newer stamp must not rebuild.
DEPS := $(OUT)/.deps

# The tests build in a kernel-tree skeleton through its lib.mk, exactly as
# they would in tools/testing/selftests/apparmor of a real tree.
TREE := $(OUT)/tree
SELFTESTS := $(TREE)/tools/testing/selftests
INSTALL := $(CURDIR)/$(OUT)/kselftest
C_FILES := $(filter-out runner/tests/%.h,$(wildcard runner/*/*.[ch])) $(wildcard selftests/*.h selftests/*/*.[ch] fixtures/guest-tests/*.c)
GUEST_SRCS := $(wildcard selftests/*/* selftests/*.h profiles/*)

.PHONY: all run compare bench msgcost mutate check unit e2e selftests format lint clean FORCE

all: $(DEPS) $(LSMCONF) selftests

$(DEPS): runner/packages.txt runner/deps.sh
	@mkdir -p $(dir $@)
	@sh runner/deps.sh runner/packages.txt
	@touch $@

$(OUT)/obj/%.o: runner/%.c $(RUNNER_HDRS) | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(RUNNER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LSMCONF): $(sort $(CLI_OBJS)) | $(DEPS)
	$(CC) $(CFLAGS) -o $@ $^ $(RUNNER_LIBS)

# A unit test links its layer and the layers below it, nothing else.
$(OUT)/tests/test_spec $(OUT)/tests/test_apt $(OUT)/tests/test_kconfig: $(PROVISION_OBJS)
$(OUT)/tests/test_accel $(OUT)/tests/test_console $(OUT)/tests/test_crash \
$(OUT)/tests/test_qmp $(OUT)/tests/test_xfer: $(VM_OBJS)
$(OUT)/tests/test_ktap $(OUT)/tests/test_results $(OUT)/tests/test_records \
$(OUT)/tests/test_compare: $(RESULTS_OBJS)
$(OUT)/tests/test_stats $(OUT)/tests/test_bench $(OUT)/tests/test_msgcost \
$(OUT)/tests/test_mutate: $(ANALYSIS_OBJS)

$(OUT)/tests/%: runner/tests/%.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(RUNNER_CFLAGS) $(CFLAGS) -o $@ $(filter-out %.h,$^) $(RUNNER_LIBS) $(CHECK_LIBS)

# KSRC=<kernel tree> takes the harness from there; otherwise from Debian's
# linux-source package, extracted once into the cache.
# Asked every time (it is cached), rewritten only when the answer changes.
$(OUT)/ksrc: $(LSMCONF) FORCE
	$(LSMCONF) ksrc > $@.tmp
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(OUT)/.tree: $(OUT)/ksrc $(GUEST_SRCS) | $(DEPS)
	rm -rf $(TREE)
	runner/mktree.sh "$$(cat $(OUT)/ksrc)" $(TREE)
	@touch $@

selftests: $(OUT)/.tree | $(DEPS)
	$(MAKE) -s -C $(SELFTESTS) TARGETS="apparmor selinux" INSTALL_PATH=$(INSTALL) install >/dev/null

run: compare

compare: $(DEPS) all
	$(LSMCONF) compare $(RUN_ARGS) $(A) $(B)

bench: $(DEPS) all
	$(LSMCONF) bench $(BENCH_ARGS) $(A) $(B)

msgcost: $(DEPS) all
	$(LSMCONF) msgcost $(MSGCOST_ARGS) $(K)

mutate: $(DEPS) all
	$(LSMCONF) mutate $(MUTATE_ARGS)

unit: $(DEPS) $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do $$t; done
	@sh runner/tests/deps_test.sh runner/deps.sh

e2e: $(DEPS) all
	runner/tests/e2e.sh $(LSMCONF)

check: $(DEPS) unit lint e2e

lint: $(DEPS)
	shellcheck -s sh runner/guest/init runner/*.sh runner/tests/*.sh .ci/run
	clang-format --dry-run --Werror $(C_FILES)

format: $(DEPS)
	clang-format -i $(C_FILES)

clean:
	rm -rf $(OUT)

FORCE:
