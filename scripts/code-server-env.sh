# shellcheck shell=bash
# Source this file (bash) to locate the project's private code-server install:
#
#   source scripts/code-server-env.sh
#   "$CODE_SERVER_BIN" --config "$CODE_SERVER_CONFIG" --version
#
# Exports:
#   CODE_SERVER_VERSION  version scripts/install-code-server.sh installs
#   CODE_SERVER_DIR      install prefix (<project>/.vscode-test/code-server, git-ignored)
#   CODE_SERVER_BIN      the code-server entry (bin script)
#   CODE_SERVER_CONFIG   an 'auth: none' config file inside CODE_SERVER_DIR, so that
#                        code-server never creates ~/.config/code-server/config.yaml
#   CODE_SERVER_STAMP    written by the installer once the install is complete
# Defines:
#   code_server_ready    exit 0 when the stamp is present and the binary reports the right version
#
# Nothing is installed by sourcing this file; run scripts/install-code-server.sh for that.

_cs_env_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"

export CODE_SERVER_VERSION="4.100.3"
export CODE_SERVER_DIR="${_cs_env_root}/.vscode-test/code-server"
export CODE_SERVER_BIN="${CODE_SERVER_DIR}/bin/code-server"
export CODE_SERVER_CONFIG="${CODE_SERVER_DIR}/config.yaml"
export CODE_SERVER_STAMP="${CODE_SERVER_DIR}/.installed-${CODE_SERVER_VERSION}"
unset _cs_env_root

code_server_ready() {
  [ -f "$CODE_SERVER_STAMP" ] && [ -x "$CODE_SERVER_BIN" ] && [ -f "$CODE_SERVER_CONFIG" ] || return 1
  local out
  out="$("$CODE_SERVER_BIN" --config "$CODE_SERVER_CONFIG" --version 2>/dev/null)" || return 1
  case "$out" in "$CODE_SERVER_VERSION "*) return 0 ;; *) return 1 ;; esac
}
