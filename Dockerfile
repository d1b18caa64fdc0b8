# One image for both services, the worker, the migrations and the CLI; the compose command picks
# the dist/ entry point (docker-compose.yml, docs/deployment.md).
FROM node:24-slim
WORKDIR /app
RUN npm install -g pnpm@10.34.9

# Packages first, from the lockfile alone: this layer is rebuilt only when the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch

COPY . .
RUN pnpm install --offline --frozen-lockfile && pnpm build

ENV NODE_ENV=production HOST=0.0.0.0
USER node
CMD ["node", "dist/property-service.js"]
