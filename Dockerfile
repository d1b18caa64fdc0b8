# One image for both services; the command picks the entry point (see docker-compose.yml).
FROM node:24-slim
WORKDIR /app
RUN npm install -g pnpm@10
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build
ENV NODE_ENV=production HOST=0.0.0.0
USER node
CMD ["node", "dist/property-service.js"]
