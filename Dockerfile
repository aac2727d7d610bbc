# syntax=docker/dockerfile:1
# Build stage: full dependencies, compile TypeScript.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY libs ./libs
RUN npm run build

# Runtime stage: production dependencies only, non-root user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 DATA_DIR=/var/lib/veritrail
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY scripts ./scripts
RUN groupadd --system veritrail && useradd --system --gid veritrail --home /app veritrail \
 && mkdir -p /var/lib/veritrail && chown veritrail:veritrail /var/lib/veritrail
USER veritrail
EXPOSE 8080
# In Kubernetes, set DATABASE_URL (a managed PostgreSQL); without it the image runs an embedded one in DATA_DIR.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
