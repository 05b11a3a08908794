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

RUNNER_SRCS := $(filter-out runner/main.c,$(wildcard runner/*.c))
RUNNER_HDRS := $(wildcard runner/*.h)
RUNNER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -DLSMCONF_ROOT='"$(CURDIR)"'
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
C_FILES := $(wildcard runner/*.[ch] runner/tests/*.c selftests/*/*.[ch] fixtures/guest-tests/*.c)
GUEST_SRCS := $(wildcard selftests/*/* selftests/*/*/*)

.PHONY: all run compare bench msgcost mutate check unit e2e selftests format lint clean FORCE

all: $(DEPS) $(LSMCONF) selftests

$(DEPS): runner/packages.txt runner/deps.sh
	@mkdir -p $(dir $@)
	@sh runner/deps.sh runner/packages.txt
	@touch $@

$(OUT)/%.o: runner/%.c $(RUNNER_HDRS) | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(RUNNER_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LSMCONF): $(OUT)/main.o $(RUNNER_SRCS:runner/%.c=$(OUT)/%.o) | $(DEPS)
	$(CC) $(CFLAGS) -o $@ $^ $(RUNNER_LIBS)

$(OUT)/tests/%: runner/tests/%.c $(RUNNER_SRCS:runner/%.c=$(OUT)/%.o) | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(RUNNER_CFLAGS) $(CFLAGS) -Irunner -o $@ $^ $(RUNNER_LIBS) $(CHECK_LIBS)

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
