#!/usr/bin/env bash
# docs/kinds.md must be what `proofline kinds --local --markdown` prints from the kinds' declarations
# (ctest cli_kinds_doc). Regenerate it with: build/proofline kinds --local --markdown > docs/kinds.md
# Usage: kinds_doc.sh <proofline> <docs/kinds.md>
set -euo pipefail
P=$1
DOC=$2
if diff -u "$DOC" <("$P" kinds --local --markdown); then
  echo "kinds_doc: $DOC is current"
else
  echo "FAIL: $DOC differs from the kinds' declarations (diff above: - the file, + the declarations);" \
    "regenerate it: proofline kinds --local --markdown > docs/kinds.md" >&2
  exit 1
fi
