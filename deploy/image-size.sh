#!/usr/bin/env bash
# The file tree each service's image copies into its final stage, built without a container engine: the
# same steps as deploy/Dockerfile's build stage (bundle, `pnpm deploy --prod`, prune) into a temporary
# folder, then its size. The node:24-bookworm-slim base layer comes on top (about 200 MB unpacked).
#   deploy/image-size.sh [service…]      default: all six
set -euo pipefail
cd "$(dirname "$0")/.."
services=("$@")
[ ${#services[@]} -gt 0 ] || services=(gateway vault forwarder importer payment-orchestrator notifier)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for service in "${services[@]}"; do
  node scripts/build.mjs "services/$service" >/dev/null
  pnpm --filter "@vaultline/$service" deploy --prod --offline "$work/$service" >/dev/null 2>&1
  before="$(du -sh "$work/$service" | cut -f1)"
  deploy/prune-image.sh "$work/$service"
  printf '%-22s %6s (before pruning %s)\n' "$service" "$(du -sh "$work/$service" | cut -f1)" "$before"
done
