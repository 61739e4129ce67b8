# syntax=docker/dockerfile:1.7
# GENERATED from docker/Dockerfile.template by tools/deploy/dockerfiles.ts: edit the template, then regenerate.
#
# inference-worker: Runs generation, training and export engines (sharp image engine built in)
#
# Build from the repository root (the build context must be the whole workspace):
#   docker build -f docker/inference-worker.Dockerfile -t genasset/inference-worker:dev .
# or every image at once: docker buildx bake -f docker/docker-bake.hcl

ARG NODE_IMAGE=node:24-slim

# ---------------------------------------------------------------------------
# base: Node 24 and the pnpm version package.json#packageManager pins
# (npm rather than corepack, whose signature check fails in some networks).
FROM ${NODE_IMAGE} AS base
ARG PNPM_VERSION=10.34.8
ENV PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH \
    CI=true \
    CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1
RUN npm install --global --no-fund --no-audit pnpm@${PNPM_VERSION} && pnpm --version
WORKDIR /repo

# ---------------------------------------------------------------------------
# deps: every dependency, dev ones included (SWC, Prisma CLI), for the build.
# Only the manifests are copied, so this layer is reused until the lockfile
# changes. Install scripts are skipped: native packages (sharp, @swc/core)
# come prebuilt as optional platform packages, and Prisma's postinstall would
# only try to download engines the build never runs.
FROM base AS deps
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY libs/webhooks/package.json libs/webhooks/package.json
RUN --mount=type=cache,id=genasset-pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --ignore-scripts --store-dir /pnpm/store

# ---------------------------------------------------------------------------
# build: generate the Prisma clients (scripts/prisma-generate.mjs points
# PRISMA_SCHEMA_ENGINE_BINARY at a placeholder: generate never runs the native
# engine), then tools/deploy/build-app.ts prunes the workspace to this app:
#   /out/dist          the app's module graph compiled by SWC (.swcrc settings,
#                      @genasset/* aliases rewritten), plus the SQL migrations
#                      and Prisma schemas of every project it reaches;
#   /out/node_modules  the npm packages it requires and their production
#                      closure, in pnpm's layout (no compiler, test tools or
#                      Prisma CLI). It fails if the app requires a package that
#                      is not a production dependency of package.json.
# Images serving the web console (platform, asset-service) also build it with
# Vite into /out/dist/apps/console/dist: static files, no runtime dependency.
FROM deps AS build
COPY tsconfig.base.json tsconfig.json .swcrc ./
COPY scripts scripts
COPY tools/deploy tools/deploy
COPY libs libs
COPY apps apps
RUN node scripts/prisma-generate.mjs --force \
 && node -r @swc-node/register tools/deploy/build-app.ts inference-worker /out

# ---------------------------------------------------------------------------
# runtime: node:24-slim with the pruned node_modules (first: the layer that
# changes least) and the compiled app, owned by root and read-only for the
# unprivileged user the process runs as (uid/gid 1000, the image's `node`
# user; numeric so Kubernetes can verify runAsNonRoot). No pnpm, no compiler,
# no TypeScript sources.
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="genasset-inference-worker" \
      org.opencontainers.image.description="Runs generation, training and export engines (sharp image engine built in)" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/dist ./dist
USER 1000:1000
EXPOSE 8080
# The app handles SIGTERM itself: readiness goes red, in-flight work finishes, offsets commit (SHUTDOWN_GRACE).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/inference-worker/src/main.js"]
