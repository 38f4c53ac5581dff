# syntax=docker/dockerfile:1
# The chat session service: `docker compose up` (compose.yaml) runs it with PostgreSQL and Redis.
# CI replays this file without Docker (scripts/docker-replay.mjs) and lints it (dockerfilelint).

# Build stage: every dependency, the Prisma client, the web client and the compiled server.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The npm cache is a build cache (BuildKit), not a layer: rebuilds download nothing they already have.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund --prefer-offline
COPY . .
RUN npm run generate && npm run build:web && npm run build

# Runtime stage: production dependencies only, installed with scripts off (the build tools are dev dependencies).
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    AUTH_ENABLED=true \
    DATA_DIR=/data \
    SESSION_FILES_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/web/vendor ./web/vendor
COPY --from=build /app/prisma ./prisma
# The admin CLI (`npm run admin -- …`) runs the TypeScript sources under tsx, a production dependency.
COPY --from=build /app/src ./src
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/tsconfig.json ./tsconfig.json
RUN mkdir -p "$DATA_DIR" && chown node:node "$DATA_DIR"
USER node
EXPOSE 4000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The heap flag of `npm start` (package.json): idle RSS, docs/performance.md.
CMD ["node", "--max-semi-space-size=4", "dist/main.js"]
