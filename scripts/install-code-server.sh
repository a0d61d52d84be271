#!/usr/bin/env bash
# Installs code-server (see scripts/code-server-env.sh for the version) into the git-ignored
# folder <project>/.vscode-test/code-server, for end-to-end tests in a real VS Code workbench.
# Works without access to GitHub or nodejs.org: only the npm registry and Debian's apt are used.
# Recipe and reasons: the README's Development section and the comments below (code-server 4.100.3 on Node 20, ripgrep from Debian).
#
# Idempotent: once complete it writes a stamp file; later runs only check that the stamp is present
# and the binary answers --version, and finish in about a second. FORCE=1 reinstalls from scratch.
# Prints the path of the code-server bin script on its last line of stdout.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/code-server-env.sh
source "${SCRIPT_DIR}/code-server-env.sh"

PKG_DIR="${CODE_SERVER_DIR}/lib/node_modules/code-server"
VSCODE_DIR="${PKG_DIR}/lib/vscode"
APT_PACKAGES=(
  libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev # headers for kerberos, native-keymap, keytar-like modules
  ripgrep                                                # replaces @vscode/ripgrep's GitHub download
  chromium                                               # the browser the e2e tests drive
  build-essential python3 pkg-config                     # node-gyp builds of argon2, node-pty, spdlog, ...
)

STEP="start"
STEP_START=$SECONDS
log() { printf '[install-code-server] %s\n' "$*" >&2; }
step() {
  STEP="$1"
  STEP_START=$SECONDS
  log "step: ${STEP}"
}
step_done() { log "  done in $((SECONDS - STEP_START)) s"; }
on_error() {
  local rc=$?
  log "FAILED at step '${STEP}' (exit ${rc}). Fix the cause and re-run; completed npm work is reused."
  exit "$rc"
}
trap on_error ERR

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else log "need root (or sudo) for: $*"; return 1
  fi
}

# ---- fast path -------------------------------------------------------------------------------
if [ "${FORCE:-}" != 1 ] && code_server_ready; then
  log "code-server ${CODE_SERVER_VERSION} already installed (${CODE_SERVER_STAMP##*/} present, binary answers)"
  echo "$CODE_SERVER_BIN"
  exit 0
fi
TOTAL_START=$SECONDS

# ---- preconditions ---------------------------------------------------------------------------
step "check node and npm"
command -v node >/dev/null || { log "node not found on PATH"; false; }
command -v npm >/dev/null || { log "npm not found on PATH"; false; }
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$NODE_MAJOR" != 20 ]; then
  log "code-server ${CODE_SERVER_VERSION} needs Node 20; 'node' on PATH is $(node -v)"
  false
fi

# ---- Debian packages -------------------------------------------------------------------------
step "apt packages"
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "  installing: ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
else
  log "  all present, apt skipped"
fi
[ -x /usr/bin/rg ] || { log "/usr/bin/rg missing although package ripgrep is installed"; false; }
step_done

# ---- npm environment -------------------------------------------------------------------------
export npm_config_yes=true
export npm_config_unsafe_perm=true
export npm_config_fund=false
export npm_config_audit=false
export npm_config_update_notifier=false
# node-gyp would download Node's headers from nodejs.org (unreachable); Debian/NodeSource ship them.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
fi
if [ "${FORCE:-}" = 1 ] && [ -e "$CODE_SERVER_DIR" ]; then
  log "removing previous install in ${CODE_SERVER_DIR}"
  rm -rf "$CODE_SERVER_DIR"
fi
# A stamp of another version means the folder holds another release: start clean.
if compgen -G "${CODE_SERVER_DIR}/.installed-*" >/dev/null && [ ! -f "$CODE_SERVER_STAMP" ]; then
  log "removing install of another version in ${CODE_SERVER_DIR}"
  rm -rf "$CODE_SERVER_DIR"
fi
rm -f "$CODE_SERVER_STAMP"
mkdir -p "$CODE_SERVER_DIR"

# ---- code-server package ---------------------------------------------------------------------
step "npm install code-server@${CODE_SERVER_VERSION} (--ignore-scripts)"
if [ "$(node -p "try{require('${PKG_DIR}/package.json').version}catch{''}")" != "$CODE_SERVER_VERSION" ]; then
  npm install --global --prefix "$CODE_SERVER_DIR" --ignore-scripts --no-audit --no-fund \
    "code-server@${CODE_SERVER_VERSION}"
else
  log "  package already unpacked"
fi
[ -f "${VSCODE_DIR}/package.json" ] || { log "${VSCODE_DIR}/package.json missing after npm install"; false; }
step_done

# argon2 (password hashing) is required at startup even with --auth none. Its install script tries a
# GitHub download first and then builds from source with node-gyp.
step "build argon2 (npm rebuild argon2)"
(cd "$PKG_DIR" && npm rebuild argon2 --foreground-scripts)
(cd "$PKG_DIR" && node -e 'require("argon2")') || { log "argon2 does not load after rebuild"; false; }
step_done

# ---- VS Code server dependencies --------------------------------------------------------------
step "lib/vscode: npm install --omit=dev --ignore-scripts"
(cd "$VSCODE_DIR" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
step_done

step "lib/vscode: link @vscode/ripgrep/bin/rg -> /usr/bin/rg"
RG_PKG="${VSCODE_DIR}/node_modules/@vscode/ripgrep"
[ -d "$RG_PKG" ] || { log "${RG_PKG} missing"; false; }
mkdir -p "${RG_PKG}/bin"
ln -sfn /usr/bin/rg "${RG_PKG}/bin/rg"
"${RG_PKG}/bin/rg" --version >/dev/null
step_done

step "lib/vscode: npm rebuild (native modules: node-pty, spdlog, kerberos, watcher, ...)"
(cd "$VSCODE_DIR" && npm rebuild --foreground-scripts)
step_done

step "lib/vscode: links (node_modules.asar, bin/remote-cli, bin/helpers)"
# Same as code-server's own postinstall.sh, which --ignore-scripts skipped.
(cd "$VSCODE_DIR" && rm -rf node_modules.asar && ln -s node_modules node_modules.asar)
(cd "${VSCODE_DIR}/bin/remote-cli" && rm -rf code-server && ln -s code-linux.sh code-server)
(cd "${VSCODE_DIR}/bin/helpers" && rm -rf browser.sh && ln -s browser-linux.sh browser.sh)
step_done

step "lib/vscode/extensions: npm install --omit=dev"
(cd "${VSCODE_DIR}/extensions" && npm install --omit=dev --no-audit --no-fund)
step_done

# ---- check -----------------------------------------------------------------------------------
step "check native modules load"
(cd "$VSCODE_DIR" && node --input-type=module -e '
  import { createRequire } from "node:module";
  const require = createRequire(process.cwd() + "/");
  for (const m of ["node-pty", "@vscode/spdlog", "native-watchdog", "@parcel/watcher", "kerberos", "@vscode/deviceid"]) {
    try { require(m); } catch (e) { console.error(`cannot load ${m}: ${e.message}`); process.exitCode = 1; }
  }')
step_done

step "write config and stamp"
# A config file of our own: without it code-server writes ~/.config/code-server/config.yaml.
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' >"$CODE_SERVER_CONFIG"
version_line="$("$CODE_SERVER_BIN" --config "$CODE_SERVER_CONFIG" --version)"
case "$version_line" in
  "$CODE_SERVER_VERSION "*) ;;
  *) log "unexpected --version output: ${version_line}"; false ;;
esac
printf '%s\nnode %s\n%s\n' "$version_line" "$(node -v)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$CODE_SERVER_STAMP"
step_done

log "code-server installed in $((SECONDS - TOTAL_START)) s: ${version_line}"
echo "$CODE_SERVER_BIN"
