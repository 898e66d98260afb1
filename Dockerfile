# spillway serve in a container (deploy/kubernetes/, docs/operations.md).
#
#   docker build -t spillway .
#   docker run --rm -e SPILLWAY_TOKEN=... -p 7777:7777 spillway \
#     serve --listen 0.0.0.0:7777 --node-id n1
#
# The build stage compiles a static binary; the runtime stage is Debian
# with what the agents' commands expect (bash, git, coreutils) and tini as
# PID 1, which reaps the processes that jobs leave behind. It runs as an
# unprivileged user.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X main.releaseVersion=${VERSION}" \
      -o /out/spillway ./cmd/spillway

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      bash coreutils git ca-certificates procps tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 spillway \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/spillway --shell /bin/bash spillway \
 && install -d -o 10001 -g 10001 /workspace
COPY --from=build /out/spillway /usr/local/bin/spillway
USER 10001:10001
WORKDIR /workspace
ENV HOME=/home/spillway
EXPOSE 7777 9090
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/spillway"]
CMD ["serve", "--listen", "0.0.0.0:7777"]
