#!/bin/sh
# Remakes version13.db with a `timeline` binary of schema version 13 (the last release whose kept counts
# were kept by triggers): the backup of version 9's input, then a second import that moves tasks to other
# statuses, agents and categories (the triggers leave a status row at 0). KeptCountsTests migrates it.
#   Tests/TimelineStoreTests/Fixtures/make-version13.sh /path/to/old/timeline
set -eu
old=$1
here=$(cd "$(dirname "$0")" && pwd)
rm -f "$here/version13.db" "$here/version13.db-wal" "$here/version13.db-shm"
"$old" import --db "$here/version13.db" "$here/version9-input.jsonl"
"$old" import --db "$here/version13.db" "$here/version13-input.jsonl"
sqlite3 "$here/version13.db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE; VACUUM;" > /dev/null
rm -f "$here/version13.db-wal" "$here/version13.db-shm"
