#!/usr/bin/env bash
# Regenerates ./prisma-types.ts, the datamodel and types the Pothos peer's Prisma plugin reads, with
# the plugin's own generator (`prisma-pothos-types`) run on the demo's SQLite schema. Run it from
# anywhere after the demo's Prisma schema changes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
touch "$work/placeholder"
node -e '
  const fs = require("node:fs");
  const [schema, output] = process.argv.slice(1);
  const text = fs.readFileSync(schema, "utf8").replace(/generator client \{[\s\S]*?\n\}/, `generator pothos {
  provider          = "prisma-pothos-types"
  clientOutput      = "../../../generated/prisma/sqlite/client/client.js"
  output            = "${output}"
  generateDatamodel = true
}`);
  fs.writeFileSync(process.argv[3], text);
' "$root/generated/prisma/sqlite/schema.prisma" "$here/prisma-types.ts" "$work/schema.prisma"
cd "$work"
PATH="$root/node_modules/.bin:$PATH" PRISMA_SCHEMA_ENGINE_BINARY="$work/placeholder" PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1 \
  PRISMA_GENERATE_SKIP_AUTOINSTALL=1 prisma generate --schema schema.prisma
