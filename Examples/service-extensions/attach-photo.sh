#!/bin/sh
# An exec service extension: reads the content JSON on stdin (and ignores it here), prints the
# modified content JSON with an attachment. The payload is data: nothing in it is run.
cat > /dev/null
dir=$(cd "$(dirname "$0")" && pwd)
printf '{"subtitle":"Jonas Weber","attachments":[{"identifier":"photo","url":"file://%s/photo.png"}]}\n' "$dir"
