# syntax=docker/dockerfile:1
# Weatherbot: one Node process serving the app, the embedded GraphQL API and the bot.
#   podman build -t weatherbot .          (or docker build; README.md, section Production)
# With no registry reachable, give the build an npm cache and it installs from there (decision 013):
#   podman build -v "$HOME/.npm:/root/.npm:O" -t weatherbot .

FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched, against the headers the Node image
# ships (node-gyp would otherwise download them).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false
COPY package.json package-lock.json ./
# --prefer-offline: what the npm cache holds (a cache mounted into the build) is not asked for again.
RUN npm ci --prefer-offline --no-audit --no-fund

FROM deps AS build
COPY . .
ARG BUILD_ID
ENV BUILD_ID=${BUILD_ID}
RUN npm run build

FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json ./
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "build/server/index.js"]
