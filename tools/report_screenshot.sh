#!/usr/bin/env bash
# Render a results file to HTML and take a screenshot of it in headless Chromium, to look at
# the report's layout.  Not used by CI.  Run from anywhere:
#
#     tools/report_screenshot.sh [RESULTS.json] [OUT.png] [WIDTHxHEIGHT]
#
# Without RESULTS it renders the hand-built sample (`cargo run -p ptx-reports --example sample`).
# The HTML is left beside the PNG (OUT.html).  Defaults: /tmp/report.png, 1280x2000.
# docs/img/report.png is such a screenshot (1280x1500), reduced to 128 colours to stay small.
# Needs Debian's chromium (`apt-get install -y chromium`); CHROMIUM names another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-}
png=${2:-/tmp/report.png}
size=${3:-1280x2000}
html=${png%.png}.html
chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null || { echo "no $chromium: apt-get install -y chromium" >&2; exit 2; }

cargo build -q --release -p ptx-reports --examples
if [ -z "$results" ]; then
    results=${png%.png}.sample.json
    target/release/examples/sample > "$results"
fi
target/release/examples/render "$results" --format html --out "$html"

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --window-size="${size/x/,}" \
    --screenshot="$png" "file://$(realpath "$html")" 2>/dev/null
echo "$png (from $html, $(wc -c < "$html") bytes of HTML)"
