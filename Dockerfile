# tms in a container: docker build -t tms . && docker run -p 8000:8000 -v tms-data:/data tms
# The configuration is /data/tms.config.json (relative paths in it resolve against /data); mount your own.
# Untested: no Docker engine where tms is built and tested (see the README, "Run as a service").
FROM node:20-bookworm-slim AS build
# libpq-dev: the headers (and pg_config) the PostgreSQL binding (libpq, under pg-native) compiles against
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ git ca-certificates libpq-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# no scripts yet (prepare needs the sources), then the native bindings: SQLite's and PostgreSQL's
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 libpq
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# libpq5: the library the PostgreSQL binding loads
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates tini libpq5 && rm -rf /var/lib/apt/lists/* \
  && useradd --system --create-home --home-dir /data tms
WORKDIR /app
COPY --from=build /app /app
ENV TMS_CONFIG=/data/tms.config.json NODE_ENV=production
USER tms
WORKDIR /data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD node -e "fetch('http://127.0.0.1:8000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini forwards SIGTERM (docker stop) so tms closes the database cleanly
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/tms"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
