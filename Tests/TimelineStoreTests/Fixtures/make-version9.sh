#!/bin/sh
# Remakes version9.db and version9-backup.jsonl with a `timeline` binary of schema version 9 (the release
# before each payload was stored once): the database that PayloadStorageTests migrates.
#   Tests/TimelineStoreTests/Fixtures/make-version9.sh /path/to/old/timeline
set -eu
old=$1
here=$(cd "$(dirname "$0")" && pwd)
rm -f "$here/version9.db" "$here/version9.db-wal" "$here/version9.db-shm"
"$old" import --db "$here/version9.db" "$here/version9-input.jsonl"
"$old" export --db "$here/version9.db" --format backup > "$here/version9-backup.jsonl"
sqlite3 "$here/version9.db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE; VACUUM;" > /dev/null
rm -f "$here/version9.db-wal" "$here/version9.db-shm"
