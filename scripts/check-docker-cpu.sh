#!/usr/bin/env bash
# Proves docker/Dockerfile.cpu without a Docker engine. It makes a fresh Debian 12 root with
# debootstrap (what `FROM debian:12` provides) and executes the Dockerfile's own instructions in
# it, read from the file, so the check and the image cannot drift apart:
#   FROM debian:12          -> debootstrap --variant=minbase bookworm, apt sources as in the image
#   ARG k=v / ENV k=v       -> environment of the later RUN steps (--build-arg k=x overrides an
#                              ARG's default, as docker build's does)
#   COPY . <dir>            -> the build context (git's files minus .dockerignore) copied to <dir>
#   WORKDIR <dir>           -> the directory the later RUN steps start in
#   RUN <command>           -> /bin/sh -c <command> in the root, through chroot
#   CMD, LABEL, EXPOSE      -> image metadata, nothing to run
# Any other instruction fails the check. Needs root (debootstrap, chroot, mount) and Debian's
# mirror. Prints how long each phase took.
#
#   scripts/check-docker-cpu.sh [--build-arg NAME=value]... [Dockerfile]
#                                                    default: docker/Dockerfile.cpu
# Environment: HIPAMP_DEBIAN_MIRROR (default http://deb.debian.org/debian),
#   HIPAMP_CHECK_ROOT (an empty directory for the root; default: a new one under /tmp),
#   HIPAMP_CHECK_KEEP=1 keeps the root afterwards (it is removed otherwise).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
declare -A build_args=()  # --build-arg NAME=value, consumed by ARG NAME=default
while [[ "${1:-}" == --build-arg ]]; do
  [[ "${2:-}" =~ ^([A-Za-z_][A-Za-z0-9_]*)=([^[:space:]\"\']*)$ ]] ||
    { echo "check-docker-cpu: --build-arg NAME=value (unquoted, no spaces), not '${2:-}'" >&2; exit 1; }
  build_args["${BASH_REMATCH[1]}"]="${BASH_REMATCH[2]}"
  shift 2
done
dockerfile="${1:-$repo/docker/Dockerfile.cpu}"
mirror="${HIPAMP_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
start=$SECONDS
say() { echo "== check-docker-cpu: $* ($((SECONDS - start)) s)"; }
die() {
  echo "check-docker-cpu: $*" >&2
  exit 1
}

[[ $(id -u) -eq 0 ]] || die "needs root (debootstrap, chroot and mount); run it with sudo"
[[ -f "$dockerfile" ]] || die "no Dockerfile at $dockerfile"
context="$repo"  # docker build -f docker/Dockerfile.cpu . (from the repository root)
if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap"
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
fi

# ---- the instructions, continuation lines joined --------------------------------------------
instructions=()
line_buffer=""
while IFS= read -r line || [[ -n "$line" ]]; do
  if [[ -z "$line_buffer" && ("$line" =~ ^[[:space:]]*# || "$line" =~ ^[[:space:]]*$) ]]; then
    continue
  fi
  if [[ "$line" =~ ^(.*)\\[[:space:]]*$ ]]; then
    line_buffer+="${BASH_REMATCH[1]} "
    continue
  fi
  instructions+=("$line_buffer$line")
  line_buffer=""
done <"$dockerfile"
for name in "${!build_args[@]}"; do  # docker build only warns; a misspelt one should fail here
  printf '%s\n' "${instructions[@]}" | grep -Eq "^ARG([[:space:]].*)?[[:space:]]$name=" ||
    die "--build-arg $name: $dockerfile has no ARG $name=<default>"
done

root="${HIPAMP_CHECK_ROOT:-}"
if [[ -z "$root" ]]; then
  root="$(mktemp -d /tmp/hipamp-debian12.XXXXXX)"
fi
[[ -z "$(ls -A "$root")" ]] || die "$root is not empty"
chmod 755 "$root"  # apt drops to the _apt user, which must be able to walk the tree
mounts=()
cleanup() {
  local status=$? m
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    m="${mounts[i]}"
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
  # Never delete through a mount that is still there (a bound /dev is the host's /dev).
  for m in "${mounts[@]}"; do
    if mountpoint -q "$m"; then
      echo "check-docker-cpu: $m is still mounted; leaving $root in place" >&2
      exit "$status"
    fi
  done
  if [[ "${HIPAMP_CHECK_KEEP:-0}" == 1 ]]; then
    echo "check-docker-cpu: the root stays at $root"
  else
    rm -rf --one-file-system "$root"
  fi
  exit "$status"
}
trap cleanup EXIT

run_env=()
workdir=/
mounted=0
mount_root() {
  ((mounted)) && return
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mounts+=("$root/proc")
  mount -t proc proc "$root/proc" || die "cannot mount /proc in the root"
  mounts+=("$root/dev")
  mount --bind /dev "$root/dev" || die "cannot bind /dev into the root"
  mounts+=("$root/sys")
  mount -t sysfs -o ro sysfs "$root/sys" || die "cannot mount /sys in the root"
  mounted=1
}

for instruction in "${instructions[@]}"; do
  keyword="${instruction%%[[:space:]]*}"
  args="${instruction#"$keyword"}"
  args="${args#"${args%%[![:space:]]*}"}"  # trim leading space
  case "${keyword^^}" in
    FROM)
      [[ "$args" =~ ^debian:(12|bookworm)([[:space:]]|$) ]] ||
        die "FROM $args: this check makes Debian 12 roots only"
      say "FROM $args: debootstrap --variant=minbase bookworm"
      debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
        die "debootstrap failed; see $root.debootstrap.log"
      rm -f "$root.debootstrap.log"
      # The debian:12 image's sources: the release, its updates and security.
      rm -f "$root/etc/apt/sources.list"
      cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${mirror}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
      mount_root
      ;;
    ARG | ENV)
      [[ "$args" =~ ^[A-Za-z_][A-Za-z0-9_]*=[^[:space:]\"\']*([[:space:]]+[A-Za-z_][A-Za-z0-9_]*=[^[:space:]\"\']*)*$ ]] ||
        die "$keyword $args: only unquoted NAME=value pairs are understood here"
      read -r -a pairs <<<"$args"
      if [[ "${keyword^^}" == ARG ]]; then
        for i in "${!pairs[@]}"; do
          name="${pairs[i]%%=*}"
          if [[ -v "build_args[$name]" ]]; then
            pairs[i]="$name=${build_args[$name]}"
          fi
        done
      fi
      run_env+=("${pairs[@]}")
      say "$keyword ${pairs[*]}"
      ;;
    COPY)
      [[ "$args" =~ ^\.[[:space:]]+(/[^[:space:]]*)$ ]] || die "COPY $args: only 'COPY . /dir' is understood"
      dest="${BASH_REMATCH[1]}"
      say "COPY . $dest (the build context)"
      mkdir -p "$root$dest"
      exclude=()
      [[ -f "$context/.dockerignore" ]] && exclude=(--exclude-from="$context/.dockerignore")
      (cd "$context" && git ls-files -z -co --exclude-standard "${exclude[@]}" |
        while IFS= read -r -d '' f; do [[ -e "$f" ]] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -xf - -C "$root$dest"
      ;;
    WORKDIR)
      workdir="$args"
      mkdir -p "$root$workdir"
      say "WORKDIR $workdir"
      ;;
    RUN)
      ((mounted)) || die "RUN before FROM"
      say "RUN $args"
      chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${run_env[@]}" \
        /bin/sh -c "cd '$workdir' && $args" ||
        die "RUN $args failed (exit $?)"
      ;;
    CMD | LABEL | EXPOSE | ENTRYPOINT)
      say "$keyword: image metadata, nothing to run"
      ;;
    *)
      die "$keyword: not understood by this check; teach it, or keep the Dockerfile simple"
      ;;
  esac
done
say "every step of $(basename "$dockerfile") passed in a fresh Debian 12 root"
