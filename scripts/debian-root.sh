#!/usr/bin/env bash
# Debian roots (chroots) for the parts of scripts/test.sh that need another Debian than the host's:
# the Debian 13 suite, the Qt6 syntax check and the package checks. Run as root.
#
#   debian-root.sh pristine SUITE   # bookworm|trixie: debootstrap's minbase root, made once and kept
#   debian-root.sh dev SUITE        # a copy of it with the project's build deps (scripts/install-deps.sh
#                                   # run inside on every call: it installs only what is missing); kept
#   debian-root.sh clean SUITE      # a throw-away copy of the pristine root (remove it with `remove`)
#   debian-root.sh remove ROOT
#   debian-root.sh run ROOT [--bind HOST_DIR:DIR[:ro]]... [--env NAME=VALUE]... [--no-network] -- COMMAND...
#
# Each prints the root's path on stdout (run: the command's output); logs go to stderr.
#
# The roots live in $VBAS_CACHE/roots/SUITE/ (default /var/cache/vbas), outside the repository, so
# that every clone on one machine, CI's included, reuses them; a fresh machine makes them anew.
# `rm -rf /var/cache/vbas` starts everything afresh. Every root of a suite shares one folder of
# downloaded packages ($VBAS_CACHE/apt/SUITE), so a package is downloaded once per machine.
set -euo pipefail

VBAS_CACHE=${VBAS_CACHE:-/var/cache/vbas}
MIRROR=${VBAS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${VBAS_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
# Written last into a root: a root without it was interrupted while being made, and is made anew.
READY=.vbas-root-ready
# Written into a dev root when scripts/install-deps.sh finished there, removed while it runs.
DEPS_READY=.vbas-deps-ready
self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
repo=$(cd "$(dirname "$self")/.." && pwd)

log() { echo "debian-root: $*" >&2; }
die() { echo "debian-root: $*" >&2; exit 1; }

check_suite() {
    case $1 in
        bookworm | trixie) ;;
        *) die "unknown suite '$1' (bookworm or trixie)" ;;
    esac
}

# The suite of a root is the name of the folder holding it ($VBAS_CACHE/roots/SUITE/NAME).
suite_of() { basename "$(dirname "$1")"; }

# One root of a suite is made or changed at a time, whoever asks (two clones testing at once).
lock_suite() {
    mkdir -p "$VBAS_CACHE/roots/$1"
    exec 9> "$VBAS_CACHE/roots/$1/.lock"
    flock 9
}

# Runs COMMAND in ROOT. The mounts (/proc, /sys, /dev with a fresh /dev/shm, the package cache,
# the --bind folders) are made in a mount namespace of their own, so they vanish with the command
# whatever way it ends (error, kill, Ctrl-C) and are never seen by, or left behind on, the host.
# It runs in a PID namespace of its own too: when it ends, or when this script is killed
# (--kill-child), every process it left behind (a server, an X display) is ended with it.
# The environment is emptied: nothing of the caller's leaks in but the --env variables.
run() {
    local root=$1
    shift
    [ -f "$root/$READY" ] || die "$root is not a finished root"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # --no-network: a network namespace of its own too, with only its own loopback, so that its
    # servers (PostgreSQL ports, X displays) never meet the host's.
    local namespaces=(--mount --propagation private --pid --fork --kill-child) arg
    for arg in "$@"; do
        [ "$arg" != -- ] || break
        [ "$arg" != --no-network ] || namespaces+=(--net)
    done
    unshare "${namespaces[@]}" -- "$self" __enter "$root" "$@" <&0 &
    local pid=$! status=0
    # unshare ignores SIGTERM and SIGINT: they go on to the namespace's PID 1 (the __enter shell),
    # whose end ends the namespace, and so unshare.
    trap 'kill -TERM $(pgrep -P "$pid") 2> /dev/null' HUP INT TERM
    while :; do
        wait "$pid" && status=0 || status=$?
        kill -0 "$pid" 2> /dev/null || break
    done
    trap - HUP INT TERM
    return $status
}

# Inside the namespace made by run: mounts, then chroot.
enter() {
    local root=$1
    shift
    local envs=() spec host dir mode
    mount -t proc proc "$root/proc"
    mount -t sysfs sysfs "$root/sys"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm" # Chromium needs it; not the host's
    mkdir -p "$VBAS_CACHE/apt/$(suite_of "$root")"
    mount --bind "$VBAS_CACHE/apt/$(suite_of "$root")" "$root/var/cache/apt/archives"
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        case $1 in
            --bind)
                spec=$2
                IFS=: read -r host dir mode <<< "$spec"
                mkdir -p "$root$dir"
                mount --bind "$host" "$root$dir"
                if [ "$mode" = ro ]; then mount -o remount,bind,ro "$root$dir"; fi
                shift 2
                ;;
            --env)
                envs+=("$2")
                shift 2
                ;;
            --no-network)
                ip link set lo up # the namespace's loopback starts down
                shift
                ;;
            *) die "run: unknown option $1" ;;
        esac
    done
    [ "${1:-}" = -- ] || die "run: '--' and a command expected"
    shift
    # This shell is the namespace's PID 1: the kernel ignores a signal to PID 1 that it does not
    # handle, so it handles them by exiting, which ends every process of the namespace.
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 143' TERM
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
        "${envs[@]}" "$@" <&0 &
    wait $!
}

# debootstrap's minbase root of SUITE, with the suite's updates and security archives, upgraded.
# Made in NAME.part and renamed when whole.
pristine() {
    local suite=$1 root part
    check_suite "$suite"
    root=$VBAS_CACHE/roots/$suite/pristine
    part=$root.part
    if [ -f "$root/$READY" ]; then
        echo "$root"
        return
    fi
    command -v debootstrap > /dev/null || die "debootstrap is missing: run scripts/install-deps.sh"
    rm -rf "$root" "$part"
    mkdir -p "$VBAS_CACHE/apt/$suite"
    log "making the $suite root $root (debootstrap)"
    # --cache-dir: a root made again on this machine downloads nothing.
    debootstrap --variant=minbase --cache-dir="$VBAS_CACHE/apt/$suite" "$suite" "$part" "$MIRROR" \
        > "$VBAS_CACHE/roots/$suite/debootstrap.log" 2>&1 ||
        { tail -n 30 "$VBAS_CACHE/roots/$suite/debootstrap.log" >&2; die "debootstrap $suite failed"; }
    cat > "$part/etc/apt/sources.list" << EOF
deb $MIRROR $suite main
deb $MIRROR $suite-updates main
deb $SECURITY_MIRROR $suite-security main
EOF
    # Roots are caches: dpkg need not sync every file, nor unpack documentation.
    cat > "$part/etc/dpkg/dpkg.cfg.d/vbas-root" << 'EOF'
force-unsafe-io
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
EOF
    cat > "$part/etc/apt/apt.conf.d/90vbas-root" << 'EOF'
Acquire::Languages "none";
APT::Keep-Downloaded-Packages "true";
Binary::apt::APT::Keep-Downloaded-Packages "true";
EOF
    # No daemon installed into a root (PostgreSQL's cluster, say) is started there.
    printf '#!/bin/sh\nexit 101\n' > "$part/usr/sbin/policy-rc.d"
    chmod 755 "$part/usr/sbin/policy-rc.d"
    touch "$part/$READY"
    run "$part" -- sh -c 'apt-get update -qq && apt-get -y -qq dist-upgrade > /dev/null' ||
        die "updating the $suite root failed"
    mv "$part" "$root"
    echo "$root"
}

# A root for building and testing: the pristine root plus what scripts/install-deps.sh installs.
dev() {
    local suite=$1 root source
    check_suite "$suite"
    source=$(pristine "$suite")
    root=$VBAS_CACHE/roots/$suite/dev
    # install-deps.sh is cheap when nothing is missing. If it was interrupted or failed (no marker),
    # the root starts from the pristine one again rather than trust a half-run dpkg.
    if [ ! -f "$root/$DEPS_READY" ]; then
        log "making the $suite dev root $root"
        rm -rf "$root"
        cp -a "$source" "$root"
    fi
    rm -f "$root/$DEPS_READY"
    log "scripts/install-deps.sh in the $suite dev root (log: $root.install.log)"
    run "$root" --bind "$repo:/src:ro" -- /src/scripts/install-deps.sh > "$root.install.log" 2>&1 ||
        { tail -n 40 "$root.install.log" >&2; die "install-deps.sh failed in $root"; }
    touch "$root/$DEPS_READY"
    echo "$root"
}

# A throw-away copy of the pristine root: a machine of SUITE as a user has it.
clean() {
    local suite=$1 source root
    check_suite "$suite"
    source=$(pristine "$suite")
    # Clean roots are removed by whoever made them; one older than a day was left by a killed run.
    find "$VBAS_CACHE/roots/$suite" -maxdepth 1 -name 'clean.*' -mmin +1440 -exec rm -rf {} +
    root=$(mktemp -d "$VBAS_CACHE/roots/$suite/clean.XXXXXX")
    cp -a "$source/." "$root/"
    echo "$root"
}

remove() {
    case $1 in
        "$VBAS_CACHE"/roots/*/clean.*) rm -rf "$1" ;;
        *) die "remove: only clean roots are removed: $1" ;;
    esac
}

[ "$(id -u)" = 0 ] || die "run as root (debootstrap, chroot, mount)"
command=${1:-}
[ $# -gt 0 ] && shift
case $command in
    pristine | dev | clean)
        [ $# = 1 ] || die "usage: $0 $command SUITE"
        lock_suite "$1"
        "$command" "$1"
        ;;
    remove) remove "$1" ;;
    run) run "$@" ;;
    __enter) enter "$@" ;;
    *) die "usage: $0 pristine|dev|clean SUITE, remove ROOT, or run ROOT [options] -- COMMAND" ;;
esac
