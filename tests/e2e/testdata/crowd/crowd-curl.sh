#!/bin/sh
# Uploads one file from many concurrent curl processes; every other one sends `Expect: 100-continue`
# (curl's own choice for bodies over 1 MiB), the rest disable it. Prints one line per client:
# "status <code> <Retry-After>" or "error <curl exit code>".
# Usage: crowd-curl.sh PORT TARGET FILE CLIENTS
port=$1 target=$2 file=$3 clients=$4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
i=0
while [ "$i" -lt "$clients" ]; do
  expect=""
  [ $((i % 2)) -eq 0 ] && expect="Expect:"
  (
    code=$(curl -s -o /dev/null -D "$out/h$i" -w '%{http_code}' --max-time 120 \
      -H "Content-Type: application/octet-stream" ${expect:+-H "$expect"} \
      --data-binary "@$file" "http://127.0.0.1:$port$target")
    rc=$?
    retry=$(grep -i '^retry-after:' "$out/h$i" | tail -1 | tr -d '\r' | awk '{print $2}')
    if [ "$code" != "000" ] && [ -n "$code" ]; then
      echo "status $code ${retry:--} exit=$rc" > "$out/r$i"
    else
      echo "error curl exit $rc" > "$out/r$i"
    fi
  ) &
  i=$((i + 1))
done
wait
cat "$out"/r*
