#!/usr/bin/env bash
# The club pages in a real browser: headless Chromium (Debian's package, installed when
# missing) loads every page type of the demo club at phone (390 px) and desktop (1280 px)
# width and fails on any console message (a CSP violation or a page error shows there);
# checks over the DevTools protocol (scripts/page-layout.mjs, Node) that no page is wider
# than the screen at 360, 390 and 1280 px;
# compares at least one fact of every page type (each competition kind's round page and the
# Swiss rank table's round cells, tie-break legend and "why above" among them) with its JSON
# read model in the rendered DOM (scripts/page-facts.py), and the first place of the Keizer
# standings and the board count of an evening once more; prints the 60-player Keizer
# standings to PDF and requires exactly one A4 page; the club night's pages (the venue screen
# at 1920×1080, the check-in and report pages at 360, 390 and 1280 px, signed in where they
# need it) and the leader's attendance view, with the leader's token; then the live pages
# (scripts/live-pages.mjs): the arbiter enters results through the API and the evening and
# standings pages, opened directly and framed by another origin, and the venue screen show
# them within 2 s without reload or console message, and an embedded page framed with the
# sizing snippet ends as tall as its content. The demo holds no knockout: scripts/mail-pages.py
# makes one through the API (the play-offs of a Keizer summer half), whose competition, round
# and play-off pages are walked and compared with their JSON; and a Keizer round two days
# ahead, whose reminder the server mails. The HTML error pages (Dutch and English) end with
# their status and log Chromium's one message for a 4xx main resource, nothing else; every
# other page ends below 400. The pages the links of mails open (an invitation, a password
# reset, an address change, the reminder's sign-off and unsubscribe links), read from the
# mail folder, are walked at 360, 390 and 1280 px, each form sent once and its effect checked
# through the API. Before the live pages, Lighthouse scores the
# front, standings, evening and player pages (scripts/lighthouse.mjs; at least 95 in each
# category, mobile and desktop). Screenshots, PDFs and the Lighthouse reports go to
# target/ci-artifacts/pages/.
# Usage: scripts/browser-test.sh [BINARY]   (default: target/debug/clubcomp)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/clubcomp}
port=${BROWSER_PORT:-18091}
out=${ARTIFACTS:-target/ci-artifacts/pages}
mkdir -p "$out"
if ! command -v chromium >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    chromium poppler-utils fonts-dejavu-core >/dev/null
fi
work=$(mktemp -d)
server_pid=""
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/demo-server.sh
# the live pages' check frames the pages from a page of its own at $host_port; every page view
# opens an event stream from this one address
host_port=$((port + 2))
# without SMTP_URL every mail is written to $work/mail (MAIL_DIR) with links to PUBLIC_URL;
# reminders are queued 72 hours before a sign-up deadline (scripts/mail-pages.py)
base="http://127.0.0.1:$port"
start_demo_server "$bin" "$port" "$work" FRAME_ANCESTORS="http://127.0.0.1:$host_port" \
  STREAM_MAX_ANON_PER_ADDRESS=1000 PUBLIC_URL="$base" MAIL_POLL_MS=100 MAIL_MAX_PER_MINUTE=1000 \
  REMINDER_HOURS_BEFORE=72

# a fresh profile per run, no network beyond the page, no first-run or background traffic
browse() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/profile" \
    --enable-logging=stderr --v=0 "$@"
}

json() { curl -fs "$base$1"; }
py() { python3 -c "$1"; }

season=$(json /api/v1/seasons | py 'import sys,json; print(json.load(sys.stdin)["items"][0]["id"])')
comps=$(json "/api/v1/seasons/$season/competitions")
comp_id() { echo "$comps" | py "import sys,json; print(next(c['id'] for c in json.load(sys.stdin)['items'] if c['kind']=='$1'))"; }
keizer=$(comp_id keizer); rapid=$(comp_id swiss); draughts=$(comp_id round_robin)
evening=$(json "/api/v1/competitions/$keizer/rounds/6" | py 'import sys,json; print(json.load(sys.stdin)["evening_id"])')
player=$(json "/api/v1/competitions/$keizer/standings" | py 'import sys,json; print(json.load(sys.stdin)["keizer"]["rows"][0]["player_id"])')
# the newest round of a competition that shows its boards (published or completed)
shown_round() {
  json "/api/v1/competitions/$1/rounds" |
    py "import sys,json; print([r['number'] for r in json.load(sys.stdin) if r['status'] in ('published', 'completed')][-1])"
}

# what the demo does not hold, in seasons of their own that are never the current one: a
# knockout (the play-offs of a Keizer summer half, semi-finals published) and a Keizer round
# two days ahead, whose reminder the server mails while the pages are walked
knockout=$(python3 scripts/mail-pages.py setup "$base") || { echo "FAIL the walk's own data"; exit 1; }

pages=(
  "front:/club/"
  "season:/club/seasons/$season"
  "calendar:/club/seasons/$season/calendar"
  "competition:/club/competitions/$keizer"
  "standings-keizer:/club/competitions/$keizer/standings"
  "standings-swiss:/club/competitions/$rapid/standings"
  "standings-round-robin:/club/competitions/$draughts/standings"
  "prizes:/club/competitions/$keizer/prizes"
  "evening:/club/evenings/$evening"
  "slips:/club/evenings/$evening/slips"
  "player:/club/players/$player"
  "prizes-round-robin:/club/competitions/$draughts/prizes"
  "embed:/club/competitions/$keizer/standings?embed=1&lang=en"
  "round-keizer:/club/competitions/$keizer/rounds/6"
  "round-swiss:/club/competitions/$rapid/rounds/$(shown_round "$rapid")"
  "round-round-robin:/club/competitions/$draughts/rounds/$(shown_round "$draughts")"
  "round-en:/club/competitions/$rapid/rounds/1?lang=en"
  "competition-knockout:/club/competitions/$knockout"
  "round-knockout:/club/competitions/$knockout/rounds/1"
  "prizes-knockout:/club/competitions/$knockout/prizes?lang=en"
)
status=0
for entry in "${pages[@]}"; do
  name=${entry%%:*}; path=${entry#*:}
  for width in 390 1280; do
    log="$work/$name-$width.log"
    browse --window-size="$width,900" --screenshot="$out/$name-$width.png" "$base$path" 2>"$log" >/dev/null || {
      echo "FAIL $name at ${width}px: chromium failed"; tail -n 5 "$log"; status=1; continue; }
    if grep -q "CONSOLE" "$log"; then
      echo "FAIL $name at ${width}px: console messages:"; grep "CONSOLE" "$log"; status=1
    else
      echo "ok   $name at ${width}px"
    fi
  done
done

# no page wider than the screen, no console message, at phone and desktop widths
devtools=$((port + 1))
# (a profile of its own: the other runs do not wait for this browser's lock)
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/devtools-profile" \
  --remote-debugging-port="$devtools" about:blank 2>"$work/devtools.log" >/dev/null &
browser_pid=$!
layout_paths=()
for entry in "${pages[@]}"; do layout_paths+=("${entry#*:}"); done
node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" "$base" 360,390,1280 \
  "${layout_paths[@]}" || status=1
# the HTML error pages, Dutch and English: each with its status and no message but Chromium's
# own for a 4xx main resource; a path with a trailing slash is redirected to its page first
error_pages=(
  "404:/club/competitions/999999" "404:/club/competitions/999999?lang=en"
  "404:/club/competitions/999999/" "/club/competitions/$keizer/standings/?lang=en"
  "404:/club/players/999999?lang=en" "404:/club/evenings/999999" "404:/club/no-such-page"
  "404:/club/competitions/$keizer/rounds/99?lang=en"
  "422:/club/competitions/$keizer?lang=xx" "422:/club/competitions/$keizer/standings?after=1000&lang=en"
  "422:/club/competitions/$rapid/standings?embed=2"
  "409:/club/competitions/$knockout/standings" "409:/club/competitions/$knockout/standings?lang=en"
  "400:/account/invitation" "400:/account/password-reset?lang=en" "400:/mail/attendance"
)
node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" "$base" 360,390,1280 \
  "${error_pages[@]}" || status=1
# the pages the links of mails open (scripts/mail-pages.py): an invitation, a password reset,
# an address change and the reminder's sign-off and unsubscribe links, caused through the API
# and read from the mail folder; walked, then each form sent once, and its effect checked
form_password="a quiet rook on the e-file"
if python3 scripts/mail-pages.py links "$base" "$work/mail" > "$work/links.txt"; then
  mail_paths=()
  while read -r _ path; do mail_paths+=("$path"); done < "$work/links.txt"
  node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" "$base" 360,390,1280 \
    "${mail_paths[@]}" || status=1
  SUBMIT_FORM=1 FORM_PASSWORD="$form_password" node --experimental-websocket --no-warnings \
    scripts/page-layout.mjs "$devtools" "$base" 390 "${mail_paths[@]}" || status=1
  python3 scripts/mail-pages.py check "$base" "$form_password" || status=1
else
  cat "$work/links.txt"; status=1
fi
kill "$browser_pid" 2>/dev/null || true
wait "$browser_pid" 2>/dev/null || true

# every page type's facts against its JSON read model, in the rendered DOM (scripts/page-facts.py:
# the Swiss rank table's rows, round cells, tie-break legend and "why above" among them)
facts=()
for entry in "${pages[@]}"; do facts+=("${entry%%:*}=${entry#*:}"); done
python3 scripts/page-facts.py "$base" "$work/facts-profile" "${facts[@]}" || status=1

# the club night's pages (docs/decisions/0346-qr-codes-on-the-pages.md, 0347, 0348): the demo
# arbiter opens the self check-in of the published evening; the venue screen of that evening
# on a 1920×1080 television (its boards and the check-in QR code, nothing taller or wider than
# the screen), the staff's check-in page signed in on the pages as the arbiter, a member's
# check-in page and a game's report page at phone and desktop widths; no console message
login_token() {
  curl -fs -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1\",\"password\":\"demo-password\"}" "$base/api/v1/auth/login" |
    py 'import sys,json; print(json.load(sys.stdin)["token"])'
}
staff=$(login_token arbiter@club.example)
curl -fs -X POST -H "Authorization: Bearer $staff" "$base/api/v1/evenings/$evening/check-in/open" >/dev/null
code=$(curl -fs -H "Authorization: Bearer $staff" "$base/api/v1/evenings/$evening/check-in-code" |
  py 'import sys,json; print(json.load(sys.stdin)["code"])')
game=$(json "/api/v1/competitions/$keizer/rounds/6" | py 'import sys,json; print(json.load(sys.stdin)["games"][0]["id"])')
page_cookie=$(curl -fs -o /dev/null -D - --data-urlencode "email=arbiter@club.example" \
  --data-urlencode "password=demo-password" --data-urlencode "next=/club/" "$base/club/sign-in" |
  tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \(clubcomp_page=[^;]*\).*/\1/p')
[ -n "$page_cookie" ] || { echo "FAIL sign-in: no cookie"; status=1; }
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/night-profile" \
  --remote-debugging-port="$devtools" about:blank 2>"$work/night.log" >/dev/null &
browser_pid=$!
FIT_HEIGHT=1 node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" "$base" \
  1920x1080,1280x720 "/club/screen?evening=$evening" "/club/screen?evening=$evening&lang=en" "/club/screen" || status=1
PAGE_COOKIE="$page_cookie" node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" \
  "$base" 360,390,1280 "/club/evenings/$evening/check-in" "/club/games/$game/report" "/club/sign-in" || status=1
node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" "$base" 360,390,1280 \
  "/club/evenings/$evening/check-in/$code" "/club/games/$game/report?lang=en" || status=1
# the leader's attendance view, with the leader's token (docs/operations.md: a page for the
# club's own tooling), its members against the competition's entrants
leader_auth="Bearer $(login_token leader@club.example)"
PAGE_AUTH="$leader_auth" node --experimental-websocket --no-warnings scripts/page-layout.mjs "$devtools" \
  "$base" 360,390,1280 "/club/competitions/$keizer/attendance" || status=1
PAGE_AUTH="$leader_auth" python3 scripts/page-facts.py "$base" "$work/facts-profile" \
  "attendance=/club/competitions/$keizer/attendance" || status=1
kill "$browser_pid" 2>/dev/null || true
wait "$browser_pid" 2>/dev/null || true
browse --window-size=1920,1080 --screenshot="$out/screen-1920.png" "$base/club/screen?evening=$evening" 2>/dev/null >/dev/null
browse --dump-dom "$base/club/screen?evening=$evening" 2>/dev/null > "$work/screen.html"
rows=$(grep -oE '<tr data-game="[0-9]+"><th scope="row" class="num">' "$work/screen.html" | wc -l)
qr=$(grep -c '<aside class="screen-check-in"' "$work/screen.html" || true)
echo "screen: $rows boards on this screenful, check-in QR shown: $qr"
{ [ "$rows" -gt 0 ] && [ "$rows" -le 12 ] && [ "$qr" = "1" ]; } || { echo "FAIL screen"; status=1; }

# the front page's next evening is the API's
browse --dump-dom "$base/club/" 2>/dev/null > "$work/front.html"
next=$(json /api/v1/evenings/next | py 'import sys,json; print(json.load(sys.stdin)["id"])')
if grep -q "<p class=\"next\"><a href=\"/club/evenings/$next\"" "$work/front.html"; then
  echo "front: next evening $next, as the API"
else
  echo "FAIL front: the next evening is not the API's ($next)"; status=1
fi

# the rendered DOM against the JSON API
browse --dump-dom "$base/club/competitions/$keizer/standings" 2>/dev/null > "$work/standings.html"
json "/api/v1/competitions/$keizer/standings" > "$work/standings.json"
python3 - "$work/standings.html" "$work/standings.json" <<'PY' || status=1
import sys, json, re
html = open(sys.argv[1]).read()
data = json.load(open(sys.argv[2]))
table = html[html.index('<table class="standings keizer"'):]
table = table[:table.index('</table>')]
rows = re.findall(r'<tr>(.*?)</tr>', table[table.index('<tbody>'):], re.S)
first = re.sub(r'<[^>]+>', '', re.findall(r'<th scope="row">(.*?)</th>', rows[0], re.S)[0]).strip()
want = data["keizer"]["rows"][0]["name"]
print(f"standings: {len(rows)} rows, first place {first!r} (JSON: {want!r}, {len(data['keizer']['rows'])} rows)")
sys.exit(0 if first == want and len(rows) == len(data["keizer"]["rows"]) == 60 else 1)
PY
browse --dump-dom "$base/club/evenings/$evening" 2>/dev/null > "$work/evening.html"
boards=$(grep -o '<tr class="board">' "$work/evening.html" | wc -l)
want=0
for c in $keizer $rapid $draughts; do
  for n in $(json "/api/v1/competitions/$c/rounds" | py "import sys,json; print(' '.join(str(r['number']) for r in json.load(sys.stdin) if r['evening_id']==$evening))"); do
    want=$((want + $(json "/api/v1/competitions/$c/rounds/$n" | py 'import sys,json; print(len(json.load(sys.stdin)["games"]))')))
  done
done
echo "evening: $boards boards on the page, $want in the JSON"
[ "$boards" -eq "$want" ] && [ "$want" -gt 0 ] || status=1

# print: the 60-player Keizer standings on exactly one A4 page; the pairing list and slips
# printed for a look
for doc in "standings-keizer:/club/competitions/$keizer/standings" "evening:/club/evenings/$evening" \
           "slips:/club/evenings/$evening/slips"; do
  name=${doc%%:*}; path=${doc#*:}
  browse --no-pdf-header-footer --print-to-pdf="$out/$name.pdf" "$base$path" 2>/dev/null >/dev/null
done
pages_n=$(pdfinfo "$out/standings-keizer.pdf" | awk '/^Pages:/ {print $2}')
size=$(pdfinfo "$out/standings-keizer.pdf" | awk -F': *' '/^Page size:/ {print $2}')
echo "print: Keizer standings on $pages_n page(s) of $size"
[ "$pages_n" = "1" ] || { echo "FAIL: the standings need $pages_n pages"; status=1; }
case "$size" in *"(A4)"*) ;; *) echo "FAIL: not A4"; status=1 ;; esac
echo "pairing list: $(pdfinfo "$out/evening.pdf" | awk '/^Pages:/ {print $2}') page(s); slips: $(pdfinfo "$out/slips.pdf" | awk '/^Pages:/ {print $2}') page(s)"
# Lighthouse (docs/decisions/0368-lighthouse-on-the-club-pages.md): the front, standings,
# evening and player pages score at least 95 in all four categories, mobile and desktop
# presets; pinned in tests/lighthouse/package-lock.json, installed under target/lighthouse
lh=${LIGHTHOUSE_DIR:-target/lighthouse}
mkdir -p "$lh"
cp tests/lighthouse/package.json tests/lighthouse/package-lock.json "$lh/"
if ! cmp -s tests/lighthouse/package-lock.json "$lh/.installed-lock" 2>/dev/null; then
  (cd "$lh" && npm ci --no-audit --no-fund --loglevel=error)
  cp tests/lighthouse/package-lock.json "$lh/.installed-lock"
fi
CHROME_PATH=/usr/bin/chromium node scripts/lighthouse.mjs "$lh" "$base" "$out/lighthouse" \
  "front:/club/" "standings:/club/competitions/$keizer/standings" \
  "evening:/club/evenings/$evening" "player:/club/players/$player" || status=1

# live pages: results entered through the API appear on the open pages (last: it enters
# results into the demo's published evening)
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$work/live-profile" \
  --remote-debugging-port="$devtools" about:blank 2>"$work/live-browser.log" >/dev/null &
browser_pid=$!
node --experimental-websocket --no-warnings scripts/live-pages.mjs "$devtools" "$base" "$host_port" \
  || status=1
kill "$browser_pid" 2>/dev/null || true
wait "$browser_pid" 2>/dev/null || true

if grep -q "panicked" "$work/server.log"; then echo "server log shows a panic"; status=1; fi
[ $status -eq 0 ] && echo "browser test passed; artefacts in $out"
exit $status
