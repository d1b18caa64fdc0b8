#!/bin/sh
# Writes the identities of SeaweedFS's S3 gateway (`weed server -s3.config=<file>`) from the
# environment: one identity, the apps' key, allowed to read, write and list S3_BUCKET only. With
# an identity configured, anonymous requests are refused. The secret goes into the file through
# printf, a shell builtin: it never appears on a command line. Usage: s3-identities.sh <file>
set -eu

file=${1:?usage: s3-identities.sh <file>}

# The values go into JSON unescaped: allow only what needs no escaping (and what S3 keys use).
check() {
  case $2 in
    '' | *[!A-Za-z0-9._+/=-]*)
      echo "$1 must be set and hold only letters, digits and . _ + / = - (e.g. openssl rand -hex 32)" >&2
      exit 1
      ;;
  esac
}
check S3_BUCKET "${S3_BUCKET:-}"
check S3_ACCESS_KEY_ID "${S3_ACCESS_KEY_ID:-}"
check S3_SECRET_ACCESS_KEY "${S3_SECRET_ACCESS_KEY:-}"

umask 077
printf '{"identities":[{"name":"platform-app","credentials":[{"accessKey":"%s","secretKey":"%s"}],"actions":["Read:%s","Write:%s","List:%s"]}]}\n' \
  "$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY" "$S3_BUCKET" "$S3_BUCKET" "$S3_BUCKET" >"$file.new"
# The image's entrypoint runs weed as the user seaweed: it must read the file, nobody else.
if id seaweed >/dev/null 2>&1; then chown seaweed:seaweed "$file.new"; fi
mv -f "$file.new" "$file"
