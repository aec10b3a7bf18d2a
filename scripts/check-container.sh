#!/usr/bin/env bash
# Checks what can be checked about the container image without a Docker engine
# (README, "Docker"):
#   - every path the Dockerfile COPYs from the build context exists;
#   - the build and runtime stages use the same Debian release, the runtime one is -slim;
#   - the image runs as a numeric non-root user;
#   - with --build (or --binary PATH): the --static-swift-stdlib binary links no Swift library
#     dynamically, and every library `ldd` lists belongs to a Debian package that the slim
#     image has or the Dockerfile installs (needs dpkg, i.e. a Debian/Ubuntu host).
#
# Usage: scripts/check-container.sh [--build | --binary PATH]
set -euo pipefail
cd "$(dirname "$0")/.."

dockerfile=Dockerfile
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# 1. COPY sources from the build context (not --from=stage copies).
while read -r line; do
    read -r -a words <<<"$line"
    [[ "${words[1]:-}" == --from=* ]] && continue
    sources=()
    for word in "${words[@]:1}"; do [[ "$word" == --* ]] || sources+=("$word"); done
    unset 'sources[${#sources[@]}-1]'  # the last word is the destination
    for source in "${sources[@]}"; do
        if [[ -e "$source" ]]; then ok "COPY source $source exists"; else fail "COPY source $source is missing"; fi
    done
done < <(grep -E '^COPY ' "$dockerfile")

# 2. Same distribution in both stages, slim at runtime.
mapfile -t images < <(grep -E '^FROM ' "$dockerfile" | awk '{print $2}')
build_image=${images[0]:-}
runtime_image=${images[${#images[@]}-1]:-}
build_release=${build_image##*-}
if [[ "$runtime_image" == "debian:${build_release}-slim" ]]; then
    ok "runtime image $runtime_image matches build image $build_image"
else
    fail "runtime image $runtime_image is not debian:${build_release}-slim (build image $build_image)"
fi
grep -q -- '--static-swift-stdlib' "$dockerfile" && ok "builds with --static-swift-stdlib" \
    || fail "the Dockerfile does not build with --static-swift-stdlib"

# 3. Numeric, non-root user.
user=$(grep -E '^USER ' "$dockerfile" | tail -1 | awk '{print $2}')
uid=${user%%:*}
if [[ "$uid" =~ ^[0-9]+$ && "$uid" != 0 ]]; then ok "runs as uid $uid"; else fail "USER '$user' is not a numeric non-root uid"; fi

# 4. Shared libraries of the binary.
binary=""
case "${1:-}" in
    --build)
        swift build -c release --static-swift-stdlib --product folio
        binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/folio"
        ;;
    --binary) binary=${2:?--binary needs a path} ;;
    "") ;;
    *) echo "usage: $0 [--build | --binary PATH]" >&2; exit 2 ;;
esac
if [[ -n "$binary" ]]; then
    if ! command -v dpkg >/dev/null; then
        fail "dpkg is needed to map libraries to Debian packages"
    else
        # What debian:*-slim always has (Priority: required), plus what the Dockerfile installs.
        available="libc6 libgcc-s1 $(sed -n 's/.*apt-get install[^a-z]*\(.*\)/\1/p' "$dockerfile" \
            | tr -d '\\' | tr ' ' '\n' | grep -v '^-' | grep -v '^&&' | tr '\n' ' ')"
        while read -r name arrow path rest; do
            [[ "$name" == linux-vdso.so.* ]] && continue
            [[ "$arrow" == "=>" ]] || path=$name  # the loader line has no arrow
            if [[ "$name" == libswift* || "$path" == *swift* ]]; then
                fail "$name is a dynamically linked Swift library ($path)"
                continue
            fi
            package=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true)
            package=${package%%:*}
            if [[ -z "$package" ]]; then
                fail "$name ($path) belongs to no Debian package"
            elif [[ " $available " == *" $package "* ]]; then
                ok "$name comes from $package"
            else
                fail "$name comes from $package, which the runtime image does not install"
            fi
        done < <(ldd "$binary")
    fi
fi

if ((failures > 0)); then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "all container checks passed"
