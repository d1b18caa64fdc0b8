#!/bin/sh
# The seaweedfs-init one-shot: creates S3_BUCKET on the SeaweedFS of host $1 (master :9333, filer
# :8888, on the compose network) unless it exists, owned by the apps' identity (s3-identities.sh).
# `weed shell` exits 0 even when a command fails, so the bucket list decides success.
set -eu

host=${1:?usage: create-bucket.sh <seaweedfs host>}
: "${S3_BUCKET:?S3_BUCKET is not set}"

weed_shell() { weed shell -master="$host:9333" -filer="$host:8888"; }
bucket_exists() { echo "s3.bucket.list" | weed_shell | grep -q "^  $S3_BUCKET[[:space:]]"; }

if bucket_exists; then
  echo "bucket $S3_BUCKET exists"
  exit 0
fi
echo "s3.bucket.create -name $S3_BUCKET -owner platform-app" | weed_shell
if ! bucket_exists; then
  echo "could not create the bucket $S3_BUCKET (see the output above)" >&2
  exit 1
fi
echo "bucket $S3_BUCKET created"
