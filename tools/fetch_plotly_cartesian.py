"""Put plotly.js's cartesian bundle for the installed plotly package into ``static/``.

The lab's chart element (``ui.chart``) draws with plotly.js's cartesian bundle (1.5 MB
minified: bar, box, contour, heatmap, histogram, pie, scatter, violin, ...) rather than the
full 4.8 MB bundle the plotly package ships, when the bundle's version equals the package's
plotly.js version; otherwise it uses the package's full bundle. The plotly package does not
ship the cartesian bundle, plotly.js publishes it on npm as ``plotly.js-cartesian-dist-min``.
This script fetches it with ``npm pack`` for the version the installed plotly package
embeds, checks its header names that version, writes it as
``static/plotly-cartesian-<version>.min.js`` (its MIT licence header kept), removes the
bundles of other versions and records the file's origin, SHA-256 and licence in
``static/PLOTLY_CARTESIAN.md``. Run it after upgrading plotly and commit what it changed;
the app never fetches anything at run time.

Run: ``python tools/fetch_plotly_cartesian.py`` (needs ``npm`` and the npm registry).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
PACKAGE = "plotly.js-cartesian-dist-min"
MEMBER = "package/plotly-cartesian.min.js"
NOTE = STATIC / "PLOTLY_CARTESIAN.md"


def main() -> int:
    from plotly.offline import get_plotlyjs_version

    version = get_plotlyjs_version()
    spec = f"{PACKAGE}@{version}"
    with tempfile.TemporaryDirectory() as tmp:
        try:
            out = subprocess.run(
                ["npm", "pack", spec, "--json", "--pack-destination", tmp],
                capture_output=True,
                text=True,
                check=True,
            )
        except FileNotFoundError:
            print("npm is not installed (Debian: apt-get install npm)", file=sys.stderr)
            return 2
        except subprocess.CalledProcessError as err:
            print(f"npm pack {spec} failed:\n{err.stderr[-2000:]}", file=sys.stderr)
            return 1
        info = json.loads(out.stdout)[0]
        with tarfile.open(Path(tmp) / info["filename"]) as tar:
            bundle = tar.extractfile(MEMBER).read()
            licence = tar.extractfile("package/LICENSE").read().decode("utf-8").strip()
    header = bundle[:300].decode("utf-8", "replace")
    found = re.search(r"plotly\.js \(cartesian[^)]*\) v(\S+)", header)
    if found is None or found.group(1) != version:
        print(f"{spec}: its header names another version:\n{header}", file=sys.stderr)
        return 1
    target = STATIC / f"plotly-cartesian-{version}.min.js"
    STATIC.mkdir(exist_ok=True)
    for old in STATIC.glob("plotly-cartesian-*.min.js"):
        if old != target:
            old.unlink()
    target.write_bytes(bundle)
    NOTE.write_text(
        "# plotly.js's cartesian bundle\n\n"
        f"`{target.name}` is the file `{MEMBER.split('/', 1)[1]}` of the npm package "
        f"`{spec}`\n(plotly.js's own build, MIT licence, copyright Plotly, Inc.; its "
        "licence header is kept),\nunchanged. Written by `python tools/fetch_plotly_cartesian.py`"
        " for the plotly.js version\nthe installed plotly package embeds; the chart element "
        "(`ui/chart`) uses it only\nwhile that version matches.\n\n"
        f"- npm integrity: `{info.get('integrity', '?')}`\n"
        f"- SHA-256 of the file: `{hashlib.sha256(bundle).hexdigest()}`\n\n"
        f"## The package's licence\n\n```\n{licence}\n```\n",
        encoding="utf-8",
    )
    print(f"wrote {target.relative_to(ROOT)} ({len(bundle):,} bytes) and {NOTE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
