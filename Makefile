# iops: one static binary (musl, libaio, liburing). Non-recursive; everything lands in build/.
# The two commands a user needs: `make run` (main job) and `make check` (all tests).

VERSION     := 0.1.0
BUILD       := build
MUSL_CC     ?= musl-gcc
HOST_CC     ?= gcc
MULTIARCH   := $(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
SYSLIB      := /usr/lib/$(MULTIARCH)
DEB_PKGS    := musl-tools libaio-dev liburing-dev check pkg-config fio ioping podman runc

WARN        := -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes \
               -Wmissing-prototypes -Wformat=2 -Wundef
ifeq ($(CI),true)
WARN        += -Werror
endif
CFLAGS      ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -DIOPS_VERSION='"$(VERSION)"' $(WARN) -MMD -MP -Ilib -Icmd

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRCS    := $(sort $(wildcard lib/*.c))
CMD_SRCS    := $(sort $(wildcard cmd/*.c))
UNIT_SRCS   := $(sort $(wildcard tests/unit/check_*.c))
UNIT_SUITES := $(filter-out main,$(patsubst tests/unit/check_%.c,%,$(UNIT_SRCS)))

# --- static musl build -----------------------------------------------------------------------------
MUSL_INC    := $(BUILD)/include
MUSL_OBJS   := $(patsubst %.c,$(BUILD)/musl/%.o,$(LIB_SRCS) $(CMD_SRCS))
MUSL_CFLAGS := $(BASE_CFLAGS) $(CFLAGS) -I$(MUSL_INC) -ffunction-sections -fdata-sections
MUSL_LDFLAGS:= -static -Wl,--gc-sections
MUSL_LIBS   := $(SYSLIB)/liburing.a $(SYSLIB)/libaio.a -lm -lpthread

# --- host (glibc) builds for unit tests and sanitizers --------------------------------------------
HOST_OBJS   := $(patsubst %.c,$(BUILD)/host/%.o,$(LIB_SRCS))
SAN_OBJS    := $(patsubst %.c,$(BUILD)/san/%.o,$(LIB_SRCS) $(CMD_SRCS))
SAN_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)
HOST_LIBS   := -luring -laio -lm -lpthread

.PHONY: all deps run check unit e2e container-test image san bench clean
all: $(BUILD)/iops

# deps: install missing Debian packages as root, otherwise print the exact command.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi

$(MUSL_INC)/.stamp: | deps
	$(Q)mkdir -p $(MUSL_INC)
	$(Q)for h in libaio.h liburing.h liburing linux asm-generic; do ln -sfn /usr/include/$$h $(MUSL_INC)/$$h; done
	$(Q)ln -sfn /usr/include/$(MULTIARCH)/asm $(MUSL_INC)/asm
	$(Q)touch $@

$(BUILD)/musl/%.o: %.c $(MUSL_INC)/.stamp
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) -c $< -o $@

$(BUILD)/iops: $(MUSL_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(MUSL_CC) $(MUSL_CFLAGS) $(MUSL_LDFLAGS) -o $@ $(MUSL_OBJS) $(MUSL_LIBS)

$(BUILD)/host/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<  (host)")
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/san/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<  (san)")
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(SAN_FLAGS) -c $< -o $@

# The unit runner's suite list is generated from the file names: check_foo.c defines foo_suite().
$(BUILD)/unit/suites.h: $(UNIT_SRCS) Makefile
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' $(foreach s,$(UNIT_SUITES),"SUITE($(s))") > $@.tmp && mv $@.tmp $@

$(BUILD)/unit/%.o: tests/unit/%.c $(BUILD)/unit/suites.h | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<  (unit)")
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(CFLAGS) -Wno-conversion -I$(BUILD)/unit $(CHECK_CFLAGS) -c $< -o $@

$(BUILD)/unit/san-%.o: tests/unit/%.c $(BUILD)/unit/suites.h | deps
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(BASE_CFLAGS) $(SAN_FLAGS) -Wno-conversion -I$(BUILD)/unit $(CHECK_CFLAGS) -c $< -o $@

UNIT_OBJS     := $(patsubst tests/unit/%.c,$(BUILD)/unit/%.o,$(UNIT_SRCS))
UNIT_SAN_OBJS := $(patsubst tests/unit/%.c,$(BUILD)/unit/san-%.o,$(UNIT_SRCS))

$(BUILD)/check_unit: $(UNIT_OBJS) $(HOST_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(HOST_CC) -o $@ $^ $(CHECK_LIBS) $(HOST_LIBS)

$(BUILD)/check_unit_san: $(UNIT_SAN_OBJS) $(filter $(BUILD)/san/lib/%,$(SAN_OBJS))
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $@ $^ $(CHECK_LIBS) $(HOST_LIBS)

# A glibc + sanitizer build of the whole binary, driven by the same end-to-end tests.
$(BUILD)/iops-san: $(SAN_OBJS)
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $@ $^ $(HOST_LIBS)

# --- user-facing targets ---------------------------------------------------------------------------
run: $(BUILD)/iops
	@mkdir -p data
	./$(BUILD)/iops ioping -c 20 data

unit: $(BUILD)/check_unit
	$(BUILD)/check_unit

e2e: $(BUILD)/iops
	tests/e2e/run.sh $(BUILD)/iops

container-test: $(BUILD)/iops
	tests/container/run.sh $(BUILD)/iops

check: unit e2e container-test

image: $(BUILD)/iops
	tests/container/build-image.sh

san: $(BUILD)/check_unit_san $(BUILD)/iops-san
	$(BUILD)/check_unit_san
	IOPS_SAN=1 tests/e2e/run.sh $(BUILD)/iops-san

bench: $(BUILD)/iops
	tests/bench/run.sh $(BUILD)/iops

clean:
	rm -rf $(BUILD)

-include $(MUSL_OBJS:.o=.d) $(HOST_OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(UNIT_SAN_OBJS:.o=.d)
