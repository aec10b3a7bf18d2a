#!/usr/bin/env bash
# Validates the Kubernetes examples (config/kubernetes/, docs/OPERATIONS.md "Kubernetes") offline
# against the API schemas of the Kubernetes versions below, with the `kubernetes-validate`
# package from PyPI, which ships the schemas of each version. --strict: a field the schema does
# not know (a typo, a field of a newer version) is an error, not a warning.
#
# The pinned package is installed when missing (once per machine, below); the validation itself
# needs no network and takes seconds.
#
# Usage: scripts/check-kubernetes.sh [FILE…]   (default: every file in config/kubernetes/ and its
# folders: redis-cluster/, redis-sentinel/)
set -euo pipefail

# The package, and the versions validated against: the oldest the example supports (native
# sidecars are on by default from 1.29, the preStop sleep action from 1.30) and the newest this
# package knows.
package_version=1.37.0
kubernetes_versions=(1.30.0 1.37.0)

files=()
for file in "$@"; do files+=("$(realpath "$file")"); done
cd "$(dirname "$0")/.."
if ((${#files[@]} == 0)); then
    for file in config/kubernetes/* config/kubernetes/*/*; do [[ -f "$file" ]] && files+=("$file"); done
fi
((${#files[@]} > 0)) || { echo "no files to validate" >&2; exit 1; }

python=$(command -v python3 || true)
[[ -n "$python" ]] || { echo "python3 is needed (apt-get install python3 python3-pip)" >&2; exit 1; }
# The pinned package from the Python environment when it has it; else installed once per machine
# into a cache folder of its own (pip --target: nothing changes in the system's Python, and a
# fresh clone does not unpack its 100 MB of schemas again).
pythonpath=""
validate() { PYTHONPATH=$pythonpath "$python" -m kubernetes_validate "$@"; }
if [[ "$(validate --version 2>/dev/null)" != "$package_version" ]]; then
    python_version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    pythonpath=${XDG_CACHE_HOME:-$HOME/.cache}/folio/kubernetes-validate-$package_version-py$python_version
    if [[ ! -f "$pythonpath/.installed" ]]; then
        echo "installing kubernetes-validate==$package_version into $pythonpath"
        rm -rf "$pythonpath"
        PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --disable-pip-version-check \
            --no-warn-script-location --target "$pythonpath" "kubernetes-validate==$package_version"
        touch "$pythonpath/.installed"
    fi
    installed=$(validate --version)
    [[ "$installed" == "$package_version" ]] \
        || { echo "kubernetes-validate $installed in $pythonpath, not $package_version" >&2; exit 1; }
fi
status=0
for version in "${kubernetes_versions[@]}"; do
    # Exit status: non-zero when any resource fails (or a file is not YAML).
    validate --strict --kubernetes-version "$version" "${files[@]}" || status=1
done
if ((status != 0)); then
    echo "Kubernetes examples: validation failed (above)" >&2
    exit 1
fi
echo "Kubernetes examples: ${#files[@]} files valid for Kubernetes ${kubernetes_versions[*]} (kubernetes-validate $package_version)"
