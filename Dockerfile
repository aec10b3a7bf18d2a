# Folio: multi-stage build. The binary links the Swift runtime statically
# (--static-swift-stdlib) and runs on the same distribution's slim image as a non-root user.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib --product folio \
 && cp "$(swift build -c release --show-bin-path)/folio" /folio

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libstdc++6 zlib1g \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home folio
COPY --from=build /folio /usr/local/bin/folio
COPY config /config
USER 10001
EXPOSE 8080 9090
ENV FOLIO_CONFIG=/config/folio.yaml
ENTRYPOINT ["/usr/local/bin/folio", "serve"]
CMD ["--config", "/config/folio.yaml"]
