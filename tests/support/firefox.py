"""Find Firefox for the second-engine test: $RAGLAB_FIREFOX, or Debian's firefox-esr.

puppeteer-core (pinned in package.json) drives it over WebDriver BiDi; it needs the real binary,
not the /usr/bin wrapper script. tests/support/system.py checks for it with the other programs the tests need.
"""

import os
import shutil
from pathlib import Path

CANDIDATES = ("/usr/lib/firefox-esr/firefox-esr", "/usr/lib/firefox/firefox")


def find_firefox() -> str | None:
    explicit = os.environ.get("RAGLAB_FIREFOX")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    found = next((path for path in CANDIDATES if Path(path).is_file()), None)
    if found:
        return found
    wrapper = shutil.which("firefox-esr") or shutil.which("firefox")
    return str(Path(wrapper).resolve()) if wrapper else None


HOW_TO_GET_ONE = (
    "No Firefox found for the second-engine test. Install one (Debian: 'sudo apt-get install firefox-esr') "
    "or point RAGLAB_FIREFOX at a Firefox binary (the real one, not a wrapper script)."
)
