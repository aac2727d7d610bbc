# syntax=docker/dockerfile:1
# Build stage: full dependencies, compile TypeScript. Node 24, the newest LTS line the tests run on (`npm run test:node`).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY libs ./libs
# The web interface (/ui): its sources and the script that bundles them into dist/ui.
COPY web ./web
COPY scripts/build-ui.js ./scripts/build-ui.js
RUN npm run build

# Runtime stage: production dependencies only, non-root user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=8080 DATA_DIR=/var/lib/veritrail
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY scripts ./scripts
# A fixed numeric user, so Kubernetes can check runAsNonRoot (deploy/k8s runs it as 10001).
RUN groupadd --system --gid 10001 veritrail && useradd --system --uid 10001 --gid veritrail --home /app veritrail \
 && mkdir -p /var/lib/veritrail && chown veritrail:veritrail /var/lib/veritrail
USER 10001
EXPOSE 8080
# In Kubernetes (deploy/k8s) DATABASE_URL is set and the embedded PostgreSQL is never started; without it (docker
# run on one machine) the image runs an embedded one in DATA_DIR. The same image runs the API (ROLE=api), the
# workers (ROLE=worker) and the migration Job (node dist/src/database/cli/run-migrations.js).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
