# syntax=docker/dockerfile:1
# iops built from source, for machines with a registry (Docker Hub's debian:12).
#
#   docker build -t iops .                       # or: podman build -f Dockerfile -t iops .
#   docker run --rm -v /datas/bench/iops:/iops/data iops ioping -c 20 /iops/data
#
# Stage "build" (Debian 12): the Makefile's own deps step installs the toolchain (musl-gcc,
# Debian's libaio.a and liburing.a, Check), the unit tests run, and `make rootfs` lays out the
# image root: /usr/bin/iops (static, stripped) plus the symlinks fio and ioping.
# The final stage is the Containerfile's image, FROM scratch: keep the two in step.

FROM debian:12 AS build
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends make gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The packages come from the Makefile's list; copying it alone first keeps this layer cached
# across source edits.
COPY Makefile ./
RUN make DEPS_FOR="unit rootfs" deps && rm -rf /var/lib/apt/lists/*
COPY . .
RUN make unit && make rootfs

FROM scratch

ARG VERSION=0.1.0
ARG REVISION=unknown
ARG SOURCE=

# COPY keeps the symlinks as symlinks: one binary, three names.
COPY --from=build /src/build/image/root/ /

LABEL org.opencontainers.image.title="iops" \
      org.opencontainers.image.description="Storage benchmark in one static binary: fio 3.33-compatible load generator and ioping 1.3-compatible latency prober" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="NOASSERTION" \
      org.opencontainers.image.source="${SOURCE}"

WORKDIR /iops/data
VOLUME /iops/data

ENTRYPOINT ["/usr/bin/iops"]
