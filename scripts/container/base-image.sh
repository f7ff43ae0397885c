#!/usr/bin/env bash
# Builds, from this machine's own parts, the image the Dockerfile's FROM names, for machines that reach no image
# registry: a Debian bookworm minbase root (debootstrap, from the Debian mirror apt uses here) with this machine's
# Node 20, npm and Node's headers in /usr/local and a `node` user (uid 1000), as in the official node image.
# Does nothing when the image is already there (FORCE=1 rebuilds it).
set -euo pipefail

IMAGE="${BASE_IMAGE:-docker.io/library/node:20-bookworm-slim}"

if [ "${FORCE:-0}" != 1 ] && podman image exists "$IMAGE"; then
  echo "base image $IMAGE: present"
  exit 0
fi

# The mirror apt uses here (deb822 or one-line sources): this script names none of its own.
mirror="$(
  { grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
    grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'
  } | grep -v security | head -n1 || true
)"
if [ -z "$mirror" ]; then
  echo "base image: no Debian mirror in this machine's apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/)" >&2
  exit 1
fi

node_bin="$(readlink -f "$(command -v node)")"
node_version="$("$node_bin" --version)"
case "$node_version" in
  v20.*) ;;
  *) echo "base image: this machine's node is $node_version; Node 20 is needed" >&2; exit 1 ;;
esac
node_prefix="$(dirname "$(dirname "$node_bin")")"
npm_dir="$node_prefix/lib/node_modules/npm"
headers="$node_prefix/include/node"
for needed in "$npm_dir/bin/npm-cli.js" "$headers/node.h"; do
  [ -e "$needed" ] || { echo "base image: $needed is missing (npm and Node's headers are needed)" >&2; exit 1; }
done

work="$(mktemp -d /var/tmp/weatherbot-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "base image $IMAGE: debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}

echo "base image $IMAGE: adding Node $node_version from $node_prefix"
mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
cp "$node_bin" "$rootfs/usr/local/bin/node"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
cp -a "$headers" "$rootfs/usr/local/include/node"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
chroot "$rootfs" /usr/local/bin/node --version >/dev/null
# As in Debian's slim images: no package lists or caches (the Dockerfile runs apt-get update itself).
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb

echo "base image $IMAGE: importing"
tar -C "$rootfs" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${node_version#v}" \
  --change 'CMD ["node"]' \
  - "$IMAGE" >/dev/null
echo "base image $IMAGE: built"
