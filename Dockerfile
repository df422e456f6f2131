# The app image: one Node process serving the API, GraphQL and the web app.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
# prisma/: the schema (generate), the migrations and the function scripts the app applies at start.
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build-web.mjs && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
COPY --from=build /app /app
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The heap limits of `npm start` (package.json): memory stays bounded under loads of any size.
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=4", "scripts/start.mjs"]
