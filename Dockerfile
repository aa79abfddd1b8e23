FROM node:20-bookworm-slim
# ffmpeg: Debian's (patched) reads the uploads; the npm packages' 2018 build is only a fallback
RUN apt-get update && apt-get install -y --no-install-recommends curl python3 make g++ ffmpeg && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY domain/package.json domain/
COPY infra/package.json infra/
COPY projections/package.json projections/
COPY workers/package.json workers/
COPY command-api/package.json command-api/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:web
ENV NODE_ENV=production
# a container is reached through its published port, never through its loopback
ENV HOST=0.0.0.0
EXPOSE 3000
CMD ["npm", "run", "start:api"]
