import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests for the web client (web/e2e). They drive Debian's Chromium
 * against a running server at E2E_BASE_URL; scripts/e2e.mjs starts one with a
 * fresh DATA_DIR and runs `playwright test`.
 */
export default defineConfig({
  testDir: './web/e2e',
  testMatch: '**/*.spec.ts',
  // Two runs on one machine (E2E_PORT / E2E_WEB_DIST) also need their own results folder.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
