# iops built from source: what `docker build -t iops .` and `podman build -t iops .` use in the
# repository's root (podman takes a Containerfile first; there is none in the root for that reason).
#
#   docker build -t iops .                       # or: podman build -t iops .
#   docker run --rm -v /datas/bench/iops:/iops/data iops ioping -c 20 /iops/data
#
# Stage "build" needs a registry for Debian 12 (Docker Hub's debian:12; another mirror with
# --build-arg DEBIAN=...) and Debian's package mirror. Offline, `make image` builds the same
# image from the binary that `make` built, with docker/Containerfile (FROM scratch only).
#
# Stage "build": the README's own set-up, make.sh, installs make and the toolchain (musl-gcc,
# Debian's libaio.a and liburing.a) through the Makefile's deps step, and `make rootfs` lays out
# the image root: /usr/bin/iops (static, stripped) plus the symlinks fio and ioping. No tests
# here: a build step runs under the engine's default seccomp profile, which blocks io_uring, and
# the unit tests drive io_uring for real (`./make.sh check` on the host runs them). The final
# stage is docker/Containerfile's image, FROM scratch: keep the two in step (the container test
# compares them).
ARG DEBIAN=debian:12
FROM ${DEBIAN} AS build
WORKDIR /src
# The packages come from the Makefile's lists; copying it (and make.sh) alone first keeps this
# layer cached across source edits.
COPY Makefile make.sh ./
RUN ./make.sh DEPS_FOR=rootfs deps && rm -rf /var/lib/apt/lists/*
COPY . .
RUN make rootfs

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
