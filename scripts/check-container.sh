#!/usr/bin/env bash
# Checks what can be checked about the container image without a container engine
# (docs/OPERATIONS.md, "Docker"; CONTRIBUTING.md, "Container image and Kubernetes examples"):
#   - every path the Dockerfile COPYs from the build context exists;
#   - the build and runtime stages use the same Debian release, the runtime one is -slim;
#   - the image runs as a numeric non-root user;
#   - with --build (or --binary PATH): the --static-swift-stdlib binary links no Swift library
#     dynamically, and every library `ldd` lists belongs to a Debian package that the slim
#     image has or the runtime stage installs (needs dpkg, i.e. a Debian/Ubuntu host);
#   - with --run as well (root, Linux): the runtime stage rebuilt as a root filesystem, the way
#     the image is: `debootstrap --variant=minbase` of the release (what debian:RELEASE-slim
#     holds) from the host apt's mirror, the runtime stage's RUN instructions run in it, the
#     binary and the files the stage COPYs laid over it read-only; then, as the Dockerfile's
#     USER, with its ENV, ENTRYPOINT and config directory mounted read-only, in a PID namespace
#     of its own (folio is PID 1): `validate`, and `demo` answering requests from the host on
#     loopback, a reload by `sh -c 'kill -HUP 1'` run inside (as `kubectl exec` would), and a
#     drain on SIGTERM from outside (as `docker stop` sends it). The debootstrapped and the
#     installed root filesystems are cached under .build/rootfs, keyed by release, mirror and
#     the runtime stage's RUN instructions: only the first run downloads anything.
#
# Usage: scripts/check-container.sh [--dockerfile FILE] [--build | --binary PATH] [--run]
#   --dockerfile FILE   check FILE instead of ./Dockerfile (also FOLIO_DOCKERFILE); COPY
#                       sources are still read from the repository, the build context
# Environment: FOLIO_ROOTFS_CACHE (default .build/rootfs), FOLIO_DEBIAN_MIRROR and
#   FOLIO_DEBIAN_SECURITY_MIRROR (default: the host apt's sources for the release).
set -euo pipefail

dockerfile=${FOLIO_DOCKERFILE:-}
mode=""
binary=""
run=false
usage() { echo "usage: $0 [--dockerfile FILE] [--build | --binary PATH] [--run]" >&2; exit 2; }
while (($# > 0)); do
    case "$1" in
        --dockerfile) dockerfile=${2:?--dockerfile needs a path}; shift 2 ;;
        --build) mode=build; shift ;;
        --binary) mode=binary; binary=${2:?--binary needs a path}; shift 2 ;;
        --run) run=true; shift ;;
        *) usage ;;
    esac
done
# Paths given on the command line are relative to where it was typed; the rest to the repository.
[[ -n "$dockerfile" ]] && dockerfile=$(realpath "$dockerfile")
[[ -n "$binary" ]] && binary=$(realpath "$binary")
cd "$(dirname "$0")/.."
dockerfile=${dockerfile:-$PWD/Dockerfile}
[[ -f "$dockerfile" ]] || { echo "no Dockerfile at $dockerfile" >&2; exit 2; }
if $run && [[ -z "$mode" ]]; then echo "--run needs --build or --binary PATH" >&2; exit 2; fi

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
started=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'; }

# The Dockerfile's instructions, one a line: comment lines dropped, continuations joined.
instructions() {
    awk '/^[[:space:]]*#/ { next }
         { if (sub(/\\[[:space:]]*$/, "")) { joined = joined $0 " "; next }
           print joined $0; joined = "" }
         END { if (joined != "") print joined }' "$dockerfile" | sed -E 's/[[:space:]]+/ /g; s/^ //'
}
# Those of the last stage, the runtime image.
runtime_instructions() { instructions | awk 'toupper($1) == "FROM" { n = 0; delete stage } { stage[++n] = $0 }
    END { for (i = 1; i <= n; i++) print stage[i] }'; }
# The packages the runtime stage's RUN instructions `apt-get install`.
runtime_packages() {
    runtime_instructions | grep -E '^RUN ' | sed -E 's/^RUN //; s/&&|\|\||;/\n/g' \
        | awk '{ for (i = 1; i <= NF; i++) if ($i == "install" && ($(i-1) == "apt-get" || $(i-1) == "apt")) {
                     for (j = i + 1; j <= NF; j++) if ($j !~ /^-/) print $j } }' | sort -u | tr '\n' ' '
}

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
done < <(instructions | grep -E '^COPY ')

# 2. Same distribution in both stages, slim at runtime.
mapfile -t images < <(instructions | grep -E '^FROM ' | awk '{print $2}')
build_image=${images[0]:-}
runtime_image=${images[${#images[@]}-1]:-}
release=${build_image##*-}
if [[ "$runtime_image" == "debian:${release}-slim" ]]; then
    ok "runtime image $runtime_image matches build image $build_image"
else
    fail "runtime image $runtime_image is not debian:${release}-slim (build image $build_image)"
fi
grep -q -- '--static-swift-stdlib' "$dockerfile" && ok "builds with --static-swift-stdlib" \
    || fail "the Dockerfile does not build with --static-swift-stdlib"

# 3. Numeric, non-root user.
user=$(runtime_instructions | grep -E '^USER ' | tail -1 | awk '{print $2}')
uid=${user%%:*}
if [[ "$uid" =~ ^[0-9]+$ && "$uid" != 0 ]]; then ok "runs as uid $uid"; else fail "USER '$user' is not a numeric non-root uid"; fi

# 4. Shared libraries of the binary.
if [[ "$mode" == build ]]; then
    swift build -c release --static-swift-stdlib --product folio
    binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/folio"
fi
packages=$(runtime_packages)
if [[ -n "$binary" ]]; then
    [[ -x "$binary" ]] || die "$binary is not an executable"
    if ! command -v dpkg >/dev/null; then
        fail "dpkg is needed to map libraries to Debian packages"
    else
        # What debian:*-slim always has (Priority: required), plus what the runtime stage installs.
        available="libc6 libgcc-s1 $packages"
        echo "runtime packages: $packages"
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

# 5. The image's root filesystem, rebuilt without a container engine, and the binary run in it.
#    Mounts are undone on every way out, in reverse order.
mounts=()
folio_pid=""
unshare_pid=""
work=""
cleanup() {
    local status=$?
    # unshare --kill-child takes the container's process with it.
    [[ -n "$unshare_pid" ]] && kill -KILL "$unshare_pid" 2>/dev/null || true
    [[ -n "$folio_pid" ]] && kill -KILL "$folio_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    unmount_to 0
    if [[ -n "$work" ]]; then
        if grep -qF " $work/" /proc/mounts; then
            echo "left $work: something is still mounted under it" >&2
        else
            rm -rf --one-file-system "$work"
        fi
    fi
    exit "$status"
}
unmount_to() {  # unmounts everything mounted since the stack had $1 entries
    local i
    for ((i = ${#mounts[@]} - 1; i >= $1; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || echo "could not unmount ${mounts[i]}" >&2
        unset 'mounts[i]'
    done
}
mount_on() {  # mount_on TARGET MOUNT-ARGUMENTS...
    local target=$1
    shift
    mount "$@" "$target"
    mounts+=("$target")
}
# A /dev as a container engine gives one: a tmpfs with the usual character devices.
mount_dev() {
    mount_on "$1/dev" -t tmpfs -o mode=755,nosuid tmpfs
    mknod -m 666 "$1/dev/null" c 1 3; mknod -m 666 "$1/dev/zero" c 1 5; mknod -m 666 "$1/dev/full" c 1 7
    mknod -m 666 "$1/dev/random" c 1 8; mknod -m 666 "$1/dev/urandom" c 1 9; mknod -m 666 "$1/dev/tty" c 5 0
    ln -s /proc/self/fd "$1/dev/fd"; ln -s /proc/self/fd/0 "$1/dev/stdin"
    ln -s /proc/self/fd/1 "$1/dev/stdout"; ln -s /proc/self/fd/2 "$1/dev/stderr"
}
# The first URI the host's apt fetches SUITE from (deb822 .sources files, then one-line lists);
# empty when none (a missing file or awk's early exit must not stop the script).
apt_uri() {
    local suite=$1 uri
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v suite="$suite" '
        BEGIN { RS = ""; FS = "\n" }
        { uris = ""; suites = ""; types = ""
          for (i = 1; i <= NF; i++) {
              if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i); uris = $i }
              if ($i ~ /^Suites:/) { sub(/^Suites:[ \t]*/, "", $i); suites = " " $i " " }
              if ($i ~ /^Types:/) { sub(/^Types:[ \t]*/, "", $i); types = " " $i " " }
          }
          if (types ~ / deb / && index(suites, " " suite " ")) { split(uris, u, " "); print u[1]; exit } }' || true)
    if [[ -z "$uri" ]]; then
        uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk -v suite="$suite" '
            $1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                          if ($(i + 1) == suite) { print $i; exit } }' || true)
    fi
    echo "$uri"
}
key() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }

run_image() {
    [[ "$(id -u)" == 0 ]] || die "--run needs root (debootstrap, chroot, mount)"
    local tool
    for tool in debootstrap chroot mount unshare nsenter mknod pgrep flock curl; do
        command -v "$tool" >/dev/null || die "--run needs $tool (apt-get install debootstrap curl util-linux)"
    done
    local mirror=${FOLIO_DEBIAN_MIRROR:-$(apt_uri "$release")}
    local security=${FOLIO_DEBIAN_SECURITY_MIRROR:-$(apt_uri "$release-security")}
    [[ -n "$mirror" ]] || die "no apt source for $release on this host: set FOLIO_DEBIAN_MIRROR"
    local cache=${FOLIO_ROOTFS_CACHE:-$PWD/.build/rootfs}
    mkdir -p "$cache"
    cache=$(realpath "$cache")
    exec 9>"$cache/.lock"
    flock 9  # one run at a time builds or uses the cache
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    work=$(mktemp -d /tmp/folio-container.XXXXXX)

    # debian:RELEASE-slim: minbase (the Priority: required packages and apt).
    local base="$cache/base-$(key "$release" "$mirror" minbase)"
    local step
    step=$(date +%s.%N)
    if [[ ! -d "$base" ]]; then
        echo "debootstrap --variant=minbase $release from $mirror (once; cached in $base)"
        rm -rf --one-file-system "$base.partial"
        debootstrap --variant=minbase "$release" "$base.partial" "$mirror" > "$work/debootstrap.log" 2>&1 \
            || { tail -20 "$work/debootstrap.log" >&2; die "debootstrap failed (log above)"; }
        mv "$base.partial" "$base"
        ok "debootstrapped $release in $(since "$step")"
    else
        ok "debootstrapped $release: cached ($base)"
    fi

    # The runtime stage's RUN instructions, run by /bin/sh as a build does, against the release's
    # suites as debian:RELEASE-slim lists them.
    local runs
    runs=$(runtime_instructions | grep -E '^RUN ' | sed 's/^RUN //')
    local image="$cache/image-$(key "$base" "$security" "$runs")"
    step=$(date +%s.%N)
    if [[ ! -d "$image" ]]; then
        echo "runtime stage's RUN instructions (once for these instructions; cached in $image)"
        rm -rf --one-file-system "$image.partial"
        cp -a "$base" "$image.partial"
        {
            printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: %s\n' \
                "$mirror" "$release" "$release" /usr/share/keyrings/debian-archive-keyring.gpg
            [[ -n "$security" ]] && printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\nSigned-By: %s\n' \
                "$security" "$release" /usr/share/keyrings/debian-archive-keyring.gpg
        } > "$image.partial/etc/apt/sources.list.d/debian.sources"
        rm -f "$image.partial/etc/apt/sources.list"
        # A snapshot mirror serves Release files past their Valid-Until; their signatures are
        # still checked.
        echo 'Acquire::Check-Valid-Until "false";' > "$image.partial/etc/apt/apt.conf.d/99check-container"
        cp /etc/resolv.conf "$image.partial/etc/resolv.conf"
        local depth=${#mounts[@]}
        mount_on "$image.partial/proc" -t proc proc
        mount_dev "$image.partial"
        local instruction
        while IFS= read -r instruction; do
            [[ -n "$instruction" ]] || continue
            echo "RUN $instruction"
            chroot "$image.partial" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                DEBIAN_FRONTEND=noninteractive /bin/sh -c "$instruction" > "$work/run.log" 2>&1 \
                || { tail -20 "$work/run.log" >&2; die "the runtime stage's RUN failed in the root filesystem"; }
        done <<<"$runs"
        unmount_to "$depth"
        mv "$image.partial" "$image"
        ok "ran the runtime stage's RUN instructions in $(since "$step")"
    else
        ok "runtime stage's RUN instructions: cached ($image)"
    fi

    # What the runtime stage COPYs, as a layer over it: the binary (COPY --from=the build stage)
    # and the files from the build context, owned by root as COPY leaves them.
    local layer="$work/layer" root="$work/root" words sources destination word
    mkdir -p "$layer" "$root"
    while read -r line; do
        read -r -a words <<<"$line"
        sources=()
        for word in "${words[@]:1}"; do [[ "$word" == --* ]] || sources+=("$word"); done
        destination=${sources[${#sources[@]}-1]}
        unset 'sources[${#sources[@]}-1]'
        if [[ "${words[1]}" == --from=* ]]; then sources=("$binary"); fi
        for source in "${sources[@]}"; do
            local target="$layer$destination"
            [[ "$destination" == */ ]] && target="$layer$destination$(basename "$source")"
            mkdir -p "$(dirname "$target")"
            cp -a "$source" "$target"
            chown -R 0:0 "$target"
        done
    done < <(runtime_instructions | grep -E '^COPY ')

    # The container's settings: USER, ENV (KEY=VALUE forms), WORKDIR, ENTRYPOINT (exec form).
    local -a environment=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/)
    local -a entrypoint=()
    local workdir=/ config_file=""
    while read -r line; do
        case "$line" in
            "ENV "*)
                read -r -a words <<<"${line#ENV }"
                if [[ "${words[0]}" == *=* ]]; then environment+=("${words[@]}"); else environment+=("${words[0]}=${words[*]:1}"); fi
                ;;
            "WORKDIR "*) workdir=${line#WORKDIR } ;;
            "ENTRYPOINT ["*)
                local list=${line#ENTRYPOINT [}
                list=${list%]}
                IFS=, read -r -a entrypoint <<<"$list"
                for i in "${!entrypoint[@]}"; do
                    word=${entrypoint[i]}
                    word=${word#"${word%%[![:space:]]*}"}
                    word=${word%"${word##*[![:space:]]}"}
                    word=${word#\"}
                    entrypoint[i]=${word%\"}
                done
                ;;
        esac
    done < <(runtime_instructions)
    for word in "${environment[@]}"; do [[ "$word" == FOLIO_CONFIG=* ]] && config_file=${word#FOLIO_CONFIG=}; done
    ((${#entrypoint[@]} > 0)) || die "the runtime stage has no ENTRYPOINT in exec form"
    [[ -n "$config_file" ]] || die "the runtime stage sets no FOLIO_CONFIG"
    local config_dir
    config_dir=$(dirname "$config_file")
    echo "container: user $user, workdir $workdir, entrypoint ${entrypoint[*]}, env ${environment[*]}"

    # The root filesystem read-only (docker run --read-only), /dev and the config directory
    # mounted over it as a user mounts their own (-v …:/config:ro, a ConfigMap): a copy of what
    # the image has there, bind-mounted and made read-only.
    mount_on "$root" -t overlay overlay -o "lowerdir=$layer:$image"
    mount_dev "$root"
    mkdir -p "$work/config"
    cp -a "$layer$config_dir/." "$work/config/"
    mount_on "$root$config_dir" --bind "$work/config"
    mount -o remount,ro,bind "$root$config_dir"
    # Proved as root, who could write anywhere else.
    if chroot "$root" /bin/sh -c ': > /written-by-check-container' 2>/dev/null; then
        fail "the root filesystem is writable"
    else
        ok "the root filesystem is read-only"
    fi
    if chroot "$root" /bin/sh -c ": > $config_dir/written-by-check-container" 2>/dev/null; then
        fail "$config_dir is writable"
    else
        ok "$config_dir is mounted read-only"
    fi
    local missing
    missing=$(chroot "$root" /usr/bin/ldd "${entrypoint[0]}" 2>&1 | grep -i 'not found' || true)
    if [[ -z "$missing" ]]; then ok "ldd in the image: every library of ${entrypoint[0]} is there"
    else fail "ldd in the image: $(echo "$missing" | tr '\n' ' ')"; fi

    # docker run IMAGE ARGS: ENTRYPOINT + ARGS as USER, with ENV only, in a PID namespace of its
    # own with its own /proc; the network is the host's (requests on loopback). An array, not a
    # function, so that `… &` makes unshare itself the background job.
    local -a container=(unshare --pid --fork --kill-child --mount --mount-proc="$root/proc"
        chroot --userspec="$user" "$root" /usr/bin/env -i -C "$workdir" "${environment[@]}" "${entrypoint[@]}")

    step=$(date +%s.%N)
    local output status=0
    output=$("${container[@]}" validate 2>&1) || status=$?
    if ((status == 0)) && [[ "$output" == "ok: "* ]]; then
        ok "folio validate: $output ($config_file, $(since "$step"))"
    else
        fail "folio validate exited $status: $output"
    fi

    step=$(date +%s.%N)
    local log="$work/demo.log"
    "${container[@]}" demo --port 0 > "$log" 2>&1 &
    unshare_pid=$!
    local client="" admin="" i
    for ((i = 0; i < 300; i++)); do
        [[ -z "$folio_pid" ]] && folio_pid=$(pgrep -P "$unshare_pid" || true)
        client=$(grep -E '"message": ?"listening"' "$log" | grep -E '"listener": ?"client"' \
            | grep -oE '"port": ?"?[0-9]+' | grep -oE '[0-9]+$' | head -1 || true)
        admin=$(grep -E '"message": ?"listening"' "$log" | grep -E '"listener": ?"admin"' \
            | grep -oE '"port": ?"?[0-9]+' | grep -oE '[0-9]+$' | head -1 || true)
        [[ -n "$client" && -n "$admin" && -n "$folio_pid" ]] && break
        kill -0 "$unshare_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z "$client" || -z "$admin" ]]; then
        tail -20 "$log" >&2
        kill -0 "$unshare_pid" 2>/dev/null && die "folio demo did not log both listeners within 30 s (log above)"
        die "folio demo exited before both listeners were up (log above)"
    fi
    # unshare's child is PID 1 of the new namespace; never signal into ours.
    if [[ "$(readlink "/proc/$folio_pid/ns/pid")" == "$(readlink /proc/self/ns/pid)" ]]; then
        die "process $folio_pid is not in a PID namespace of its own"
    fi
    ok "folio demo listening: client port $client, admin port $admin, host pid $folio_pid ($(since "$step"))"

    # GET URL: STATUS and BODY (the body in $work/body).
    get() { curl -sS --max-time 60 -o "$work/body" -w '%{http_code}' "$1" || echo 000; }
    local code body
    step=$(date +%s.%N)
    code=$(get "http://127.0.0.1:$client/objects?pageSize=3")
    body=$(cat "$work/body")
    if [[ "$code" == 200 && "$body" =~ \"totalCount\":\ ?1337[,}] && "$body" =~ \"pageSize\":\ ?3[,}] ]]; then
        ok "GET /objects?pageSize=3: 200, totalCount 1337, pageSize 3 ($(since "$step"))"
    else
        fail "GET /objects?pageSize=3: $code ${body:0:300}"
    fi
    step=$(date +%s.%N)
    code=$(get "http://127.0.0.1:$client/paged-objects?pageSize=5&page=3")
    body=$(cat "$work/body")
    if [[ "$code" == 200 && "$body" =~ \"totalCount\":\ ?1337[,}] ]]; then
        ok "GET /paged-objects?pageSize=5&page=3: 200, totalCount 1337, crawled ($(since "$step"))"
    else
        fail "GET /paged-objects?pageSize=5&page=3: $code ${body:0:300}"
    fi
    code=$(get "http://127.0.0.1:$client/no-such-route")
    if [[ "$code" == 404 ]]; then ok "GET /no-such-route: 404"; else fail "GET /no-such-route: $code, not 404"; fi
    for path in /readyz /livez; do
        code=$(get "http://127.0.0.1:$admin$path")
        if [[ "$code" == 200 ]]; then ok "admin GET $path: 200"; else fail "admin GET $path: $code"; fi
    done
    code=$(get "http://127.0.0.1:$admin/metrics")
    if [[ "$code" == 200 ]] && grep -q '^folio_' "$work/body"; then ok "admin GET /metrics: 200, folio_* series"
    else fail "admin GET /metrics: $code"; fi

    # A reload as `kubectl exec POD -c folio -- sh -c 'kill -HUP 1'` does it: a shell of the image,
    # as the image's user, in the container's namespaces and root.
    if nsenter --target "$folio_pid" --pid --mount --root --wd -S "$uid" -G "${user#*:}" \
        /bin/sh -c 'kill -HUP 1' 2>"$work/exec.log"; then
        for ((i = 0; i < 100; i++)); do grep -q '"config reloaded"' "$log" && break; sleep 0.1; done
        if grep -q '"config reloaded"' "$log"; then ok "sh -c 'kill -HUP 1' inside as uid $uid: config reloaded"
        else fail "SIGHUP sent, but no \"config reloaded\" in the log"; fi
    else
        fail "sh -c 'kill -HUP 1' inside the container failed: $(cat "$work/exec.log")"
    fi

    # docker stop: SIGTERM from outside to PID 1, then the drain's exit status.
    step=$(date +%s.%N)
    kill -TERM "$folio_pid"
    for ((i = 0; i < 300; i++)); do kill -0 "$unshare_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$unshare_pid" 2>/dev/null; then
        fail "SIGTERM: still running after 30 s"
        kill -KILL "$unshare_pid"
    fi
    status=0
    wait "$unshare_pid" || status=$?
    folio_pid=""
    unshare_pid=""
    if ((status == 0)); then ok "SIGTERM: drained and exited 0 ($(since "$step"))"
    else fail "SIGTERM: exited $status"; tail -5 "$log" >&2; fi
    if grep -q '"level":"error"\|"level": "error"' "$log"; then
        fail "the demo logged errors: $(grep -m3 '"error"' "$log")"
    fi
}
$run && run_image

if ((failures > 0)); then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "all container checks passed ($(since "$started"))"
