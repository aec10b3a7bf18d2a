#!/usr/bin/env bash
# Runs python3 with the pinned Selenium importable, for the admin page's browser test
# (Tests/Browser/admin_page.py) and scripts/admin-screenshot.sh. Selenium comes from PyPI once
# a machine, into a cache folder of its own (pip --target: the system's Python is left alone);
# the browser is Debian's `chromium` with `chromium-driver` (Selenium downloads nothing).
# Exit status 77 when chromium, its driver or Python is missing.
set -euo pipefail
package_version=4.51.0

python=$(command -v python3 || true)
for tool in "$python" /usr/bin/chromium /usr/bin/chromedriver; do
    [[ -n "$tool" && -x "$tool" ]] || {
        echo "browser test: ${tool:-python3} missing (apt-get install python3 python3-pip chromium chromium-driver)" >&2
        exit 77
    }
done
pythonpath=""
if [[ "$("$python" -c 'import selenium; print(selenium.__version__)' 2>/dev/null)" != "$package_version" ]]; then
    python_version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    pythonpath=${XDG_CACHE_HOME:-$HOME/.cache}/folio/selenium-$package_version-py$python_version
    if [[ ! -f "$pythonpath/.installed" ]]; then
        echo "installing selenium==$package_version into $pythonpath" >&2
        rm -rf "$pythonpath"
        PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --disable-pip-version-check \
            --no-warn-script-location --target "$pythonpath" "selenium==$package_version" >&2
        touch "$pythonpath/.installed"
    fi
fi
# Selenium Manager must not look for drivers or browsers online: both paths are given.
SE_OFFLINE=true PYTHONPATH=$pythonpath exec "$python" "$@"
