# Sourced by scripts/install-deps.sh and scripts/install-apps.sh (not run by
# itself): install_missing LABEL PKG... installs the Debian packages among
# PKG... that dpkg does not have installed, with apt-get, and does nothing when
# every one is there (a second run costs a dpkg query). LABEL starts its
# messages. Not root with packages missing: says which on stderr and exits 1.
install_missing() {
  local label=$1 p
  shift
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done

  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "$label: missing packages ${missing[*]}; run as root (or install them) first" >&2
      exit 1
    fi
    echo "$label: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}
