# One image for both services, the worker, the migrations and the CLI; the compose command picks
# the dist/ entry point (docker-compose.yml, docs/deployment.md).
#
# Two stages: `build` installs everything (development tools included), bundles dist/ and lays
# out what runs in /image (scripts/image-layout.mjs: dist/*.js, prisma/migrations, and only the
# packages the bundles leave external, with their production dependencies). The final stage is
# the base image plus that folder: no sources, tests, source maps or development dependencies.
#
# The base is pinned by its index digest (multi-platform), the tag kept for readability. Refresh
# it monthly for the base's security updates, and whenever Node 24 has a security release:
#   docker buildx imagetools inspect node:24-slim    # "Digest:" of the index, on both FROM lines
FROM node:24-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.9

# Packages first, from the lockfile alone: this layer is rebuilt only when the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch

COPY . .
RUN pnpm install --offline --frozen-lockfile && pnpm build && node scripts/image-layout.mjs /image

FROM node:24-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
# Owned by root, read-only for the user the processes run as.
COPY --from=build /image/ ./
# The erasure journal's mount point, owned by the user: a new named volume takes its owner from it.
RUN mkdir -p /var/lib/platform/erasure-journal && chown node:node /var/lib/platform/erasure-journal
USER node
CMD ["node", "dist/property-service.js"]
