#!/usr/bin/env bash
# verify-webhook.sh BODY_FILE SIGNATURE_HEADER SECRET: exit 0 when the delivery is genuine. For checking
# a delivery by hand (a captured body and its X-…-Signature header); the secret shows in the process list.
set -euo pipefail
body=$1 header=$2 secret=$3
t=$(tr ',' '\n' <<<"$header" | sed -n 's/^ *t=\([0-9]\{1,\}\)$/\1/p' | head -n 1)
[ -n "$t" ] || { echo 'malformed header' >&2; exit 1; }
now=$(date +%s)
if (( t < now - 300 || t > now + 300 )); then echo 'timestamp outside tolerance' >&2; exit 1; fi
# The one-liner: HMAC-SHA256 of "<t>.<raw body>", lowercase hex.
expected=$(printf '%s.' "$t" | cat - "$body" | openssl dgst -sha256 -hmac "$secret" -r | cut -d' ' -f1)
if tr ',' '\n' <<<"$header" | grep -qx " *v1=$expected"; then echo valid; else echo 'signature mismatch' >&2; exit 1; fi
