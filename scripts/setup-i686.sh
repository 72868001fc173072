#!/usr/bin/env bash
# Installs the 32-bit (i686-unknown-linux-gnu) toolchain that `make build32` and `make test32`
# use. Idempotent: a second run only checks (a fraction of a second) and changes nothing.
#
# rustup offers no i686 std on this machine, so the toolchain is Debian's: rustc-web and
# cargo-web (/usr/bin/rustc, /usr/bin/cargo, /usr/bin/rustdoc), gcc-multilib to link and run
# 32-bit binaries, and the i686 std from libstd-rust-web-dev:i386 at exactly the compiler's
# version. That i386 package is not installed with apt (multiarch installs fail whenever the
# i386 index lags the amd64 one): it is fetched with `apt-get download` and unpacked with
# `dpkg -x` into the compiler's sysroot, lib/rustlib/i686-unknown-linux-gnu, with a stamp file
# there recording the version.
#
# The version: the newest one that the mirror offers for rustc-web, cargo-web and
# libstd-rust-web-dev on amd64 and for libstd-rust-web-dev on i386 (a mirror's i386 or
# security index may lag or fail to download); CCR_I686_RUST_VERSION=VERSION pins one of those.
#
# Usage: scripts/setup-i686.sh          install if needed, then say which binaries to use
#        scripts/setup-i686.sh --env    the same, then print `export RUSTC=...` lines for eval
#                                       (messages go to stderr)
set -euo pipefail
export LC_ALL=C

TARGET=i686-unknown-linux-gnu
RUSTC=/usr/bin/rustc
CARGO=/usr/bin/cargo
RUSTDOC=/usr/bin/rustdoc
STAMP_NAME=.ccr-setup-i686.version

print_env=false
case "${1:-}" in
    "") ;;
    --env) print_env=true ;;
    *)
        echo "usage: $0 [--env]" >&2
        exit 2
        ;;
esac

say() { echo "setup-i686: $*" >&2; }
die() {
    echo "error: setup-i686: $*" >&2
    exit 1
}

# The installed version of a package (arch-qualified names allowed), empty if not installed.
installed_version() {
    dpkg-query -W -f='${db:Status-Abbrev}|${Version}\n' "$1" 2>/dev/null |
        awk -F'|' '$1 ~ /^ii/ { print $2; exit }'
}

# The sysroot's rustlib directory of the i686 target.
target_dir() {
    echo "$("$RUSTC" --print sysroot)/lib/rustlib/$TARGET"
}

# True when the installed compiler has its own version's i686 std and everything else is there.
ready() {
    local version dir
    version=$(installed_version rustc-web)
    [ -n "$version" ] || return 1
    [ "$(installed_version cargo-web)" = "$version" ] || return 1
    [ -n "$(installed_version gcc-multilib)" ] || return 1
    [ -x "$RUSTC" ] && [ -x "$CARGO" ] && [ -x "$RUSTDOC" ] || return 1
    dir=$(target_dir) || return 1
    compgen -G "$dir/lib/libstd-*.rlib" >/dev/null || return 1
    [ "$(cat "$dir/$STAMP_NAME" 2>/dev/null)" = "$version" ] ||
        [ "$(installed_version libstd-rust-web-dev:i386)" = "$version" ]
}

report() {
    local version
    version=$(installed_version rustc-web)
    say "ready: rustc-web $version ($("$RUSTC" --version)) with the $TARGET std in $(target_dir)"
    say "use: RUSTC=$RUSTC RUSTDOC=$RUSTDOC $CARGO build --target $TARGET"
    if $print_env; then
        echo "export RUSTC=$RUSTC RUSTDOC=$RUSTDOC CARGO=$CARGO"
    fi
}

if ready; then
    report
    exit 0
fi

# ---- The slow path: install. -------------------------------------------------------------

[ "$(id -u)" = 0 ] || die "must run as root (it uses apt-get and dpkg) to install the i686 toolchain"
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
    die "needs a Debian system (apt-get and dpkg not found)"
native=$(dpkg --print-architecture)
[ "$native" = amd64 ] || die "needs an amd64 (x86_64) Debian host, this one is $native"

# One installer at a time; the one that waited finds everything done.
exec 9>/var/lock/ccr-setup-i686.lock
flock 9
if ready; then
    report
    exit 0
fi

if ! dpkg --print-foreign-architectures | grep -qx i386; then
    say "enabling the i386 architecture (dpkg --add-architecture i386) for apt-get download"
    dpkg --add-architecture i386
fi

say "apt-get update"
if ! apt-get update -qq >/dev/null 2>/tmp/ccr-setup-i686.update.err; then
    # A partly failed update (one index mid-sync on the mirror) still leaves the others usable.
    say "warning: apt-get update reported errors; going on with the indexes it has:"
    grep -E '^(E|W):' /tmp/ccr-setup-i686.update.err | head -5 >&2 || true
fi
rm -f /tmp/ccr-setup-i686.update.err

# The versions the indexes offer for PACKAGE on ARCH, one a line.
offered() {
    apt-cache madison "$1:$2" 2>/dev/null |
        awk -F'|' -v arch="$2" '$3 ~ (" " arch " Packages") { gsub(/ /, "", $2); print $2 }' |
        sort -u
}
common=$(offered rustc-web amd64)
for pkg in cargo-web:amd64 libstd-rust-web-dev:amd64 libstd-rust-web-dev:i386; do
    common=$(comm -12 <(echo "$common") <(offered "${pkg%%:*}" "${pkg##*:}"))
done
common=$(echo "$common" | sed '/^$/d')
if [ -z "$common" ]; then
    die "no version is offered both for rustc-web/cargo-web (amd64: $(offered rustc-web amd64 | paste -sd' ' -)) and for libstd-rust-web-dev:i386 (i386: $(offered libstd-rust-web-dev i386 | paste -sd' ' -))"
fi
if [ -n "${CCR_I686_RUST_VERSION:-}" ]; then
    echo "$common" | grep -qxF "$CCR_I686_RUST_VERSION" ||
        die "CCR_I686_RUST_VERSION=$CCR_I686_RUST_VERSION is not offered for both amd64 and i386 (offered: $(echo "$common" | paste -sd' ' -))"
    version=$CCR_I686_RUST_VERSION
else
    version=
    for v in $common; do
        if [ -z "$version" ] || dpkg --compare-versions "$v" gt "$version"; then
            version=$v
        fi
    done
fi
say "version $version (offered for both amd64 and i386: $(echo "$common" | paste -sd' ' -))"

if [ "$(installed_version rustc-web)" != "$version" ] ||
    [ "$(installed_version cargo-web)" != "$version" ] ||
    [ -z "$(installed_version gcc-multilib)" ]; then
    say "apt-get install rustc-web=$version cargo-web=$version libstd-rust-web-dev=$version gcc-multilib"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --allow-downgrades \
        "rustc-web=$version" "cargo-web=$version" "libstd-rust-web-dev=$version" gcc-multilib \
        >/dev/null || die "apt-get install of rustc-web=$version cargo-web=$version gcc-multilib failed"
fi
[ "$(installed_version rustc-web)" = "$version" ] || die "rustc-web $version did not install"
upstream=${version%%+*}
upstream=${upstream%%-*}
"$RUSTC" --version | grep -qF "rustc $upstream" ||
    die "$RUSTC is not rustc-web $upstream: $("$RUSTC" --version 2>&1)"

# The i686 std: the dev package's rlibs (plus the files they link to in its dependency
# libstd-rust-web-1.XX, should some be symlinks), unpacked into the sysroot.
work=$(mktemp -d /tmp/ccr-setup-i686.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
if id _apt >/dev/null 2>&1; then chown _apt "$work"; fi
say "apt-get download libstd-rust-web-dev:i386=$version; dpkg -x into $(target_dir)"
(cd "$work" && apt-get download -qq "libstd-rust-web-dev:i386=$version" >/dev/null) ||
    die "apt-get download libstd-rust-web-dev:i386=$version failed"
debs=("$work"/libstd-rust-web-dev_*_i386.deb)
[ -f "${debs[0]}" ] || die "apt-get download left no libstd-rust-web-dev i386 .deb"
if dpkg -c "${debs[0]}" | grep -q '^l'; then
    dep=$(dpkg-deb -f "${debs[0]}" Depends | tr ',' '\n' | awk '/libstd-rust-web-[0-9]/ { print $1; exit }')
    [ -n "$dep" ] || die "cannot tell the dependency of libstd-rust-web-dev:i386=$version that its symlinks point into"
    (cd "$work" && apt-get download -qq "$dep:i386=$version" >/dev/null) ||
        die "apt-get download $dep:i386=$version failed"
    debs=("$work"/*.deb)
fi
mkdir "$work/root"
for deb in "${debs[@]}"; do
    dpkg -x "$deb" "$work/root"
done
staged="$work/root/usr/lib/rustlib/$TARGET"
compgen -G "$staged/lib/libstd-*.rlib" >/dev/null ||
    die "libstd-rust-web-dev:i386=$version has no $TARGET libstd rlib"
# Symlinks become copies of what they point to (in the unpacked packages), so that nothing is
# put outside the target's directory.
find "$staged" -type l | while read -r link; do
    to=$(readlink "$link")
    case "$to" in
        /*) from="$work/root$to" ;;
        *) from="$(dirname "$link")/$to" ;;
    esac
    if [ -e "$from" ]; then
        cp --remove-destination -L "$from" "$link"
    fi
done
dest=$(target_dir)
rm -rf "$dest.new"
cp -a "$staged" "$dest.new"
echo "$version" >"$dest.new/$STAMP_NAME"
rm -rf "$dest"
mv "$dest.new" "$dest"

# Proof: a 32-bit program builds, links and runs.
cat >"$work/hello.rs" <<'EOF'
fn main() {
    println!("{}", std::mem::size_of::<usize>() * 8);
}
EOF
"$RUSTC" --target "$TARGET" -o "$work/hello" "$work/hello.rs" ||
    die "rustc --target $TARGET cannot build a hello world with the unpacked std"
[ "$("$work/hello")" = 32 ] || die "the $TARGET hello world does not run as a 32-bit program"
ready || die "installed, but the check that a second run makes still fails"
report
