# Folio container image (docs/OPERATIONS.md, "Docker").
#
# Build stage: the official Swift image of the same Debian release as the runtime image. The
# binary links the Swift runtime and Foundation statically (--static-swift-stdlib), so the
# runtime needs only the C/C++ libraries `ldd` lists (libc, libm, libstdc++, libgcc_s, libz, and
# the compressors libbrotlienc/libbrotlidec and libzstd) and CA certificates for https upstreams.
# scripts/check-container.sh checks that list.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libbrotli-dev libzstd-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so this layer is rebuilt only when the manifest changes.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
# SwiftPM checks every target's directory exists, test targets included.
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product folio \
 && install -D "$(swift build -c release --show-bin-path)/folio" /out/folio

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libstdc++6 libgcc-s1 zlib1g libbrotli1 libzstd1 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/folio /usr/local/bin/folio
# An example config; mount your own over /config (a ConfigMap in Kubernetes).
COPY config/folio.yaml /config/folio.yaml
# Numeric, so Kubernetes' runAsNonRoot can verify it. Folio writes nothing to disk, so the
# root filesystem may be read-only.
USER 10001:10001
EXPOSE 8080 9090
ENV FOLIO_CONFIG=/config/folio.yaml
# Exec form: folio is PID 1 and receives SIGTERM (drain) and SIGHUP (reload) itself.
ENTRYPOINT ["/usr/local/bin/folio"]
CMD ["serve"]
