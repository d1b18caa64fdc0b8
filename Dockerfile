# One image for both services; the command picks the service (see docker-compose.yml).
FROM node:24-slim
WORKDIR /app
RUN npm install -g pnpm@10
COPY . .
RUN pnpm install --frozen-lockfile
ENV NODE_ENV=production HOST=0.0.0.0
USER node
CMD ["pnpm", "exec", "tsx", "apps/property-service/src/main.ts"]
