# stockmock in a container: `docker build -t stockmock .` then
# `docker run -p 4010:4010 stockmock` serves the shipped catalogue with the demo tokens.
# Your own data: mount a folder holding a config and its fixtures, and name the config:
#   docker run -p 4010:4010 -v "$PWD/mock:/data:ro" -e STOCKMOCK_CONFIG=/data/stockmock.config.yaml stockmock
# test/e2e/container.test.ts runs these steps (the build stage, then the runtime stage's
# install and start) in a temporary folder: no Docker engine is needed to keep them working.

# Build stage: compile TypeScript to dist/. The `node` devDependency's binary is not needed
# here (the image has Node), so install scripts are skipped and tsc runs on the image's Node.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src ./src
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json

# Runtime stage: production dependencies, the compiled code and the shipped data, run as the
# image's unprivileged `node` user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY spec ./spec
COPY fixtures ./fixtures
COPY stockmock.config.yaml stockmock.config.schema.json ./
USER node
# Inside a container the server must listen on every interface; logs are JSON lines.
ENV STOCKMOCK_HOST=0.0.0.0 STOCKMOCK_LOG_FORMAT=json
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.STOCKMOCK_PORT || process.env.PORT || 4010) + '/__stockmock/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "bin/stockmock.js", "serve"]
