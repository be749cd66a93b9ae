# The release, in a container. No logic of its own: the build stage runs the same `pnpm build`
# that CI runs and tests, and the image runs the folder it produces with plain node.

FROM node:24-bookworm-slim AS build
# Node.js 24 loads better-sqlite3 13, prebuilt: no compiler needed. Node.js 20's driver, an optional
# dependency, may fail to build here: a release built with Node.js 24 does not ship it.
WORKDIR /src
COPY . .
RUN npx -y pnpm@10 install --frozen-lockfile && npx -y pnpm@10 build

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3002 \
    DATABASE_URL=sqlite:/data/app.db \
    ADMIN_KEY_PATH=/data/admin.key
WORKDIR /app
# Owned by root and read-only to the service: it writes only to /data.
COPY --from=build /src/release ./
RUN mkdir -m 0700 /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3002
# /ready, not /health: an instance that cannot reach its database or is stopping takes no traffic.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 and gets SIGTERM from `docker stop`: no shell, no npm in between.
ENTRYPOINT ["node", "server.mjs"]
