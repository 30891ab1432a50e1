// Three vitest projects over the same tests/*.test.js:
//   node    - Node, 'wirepack' -> js/src/index.node.js, 'wirepack/cbor' -> js/src/cbor.node.js
//   browser - Debian's Chromium (scripts/chromium.js) through playwright-core, 'wirepack' -> js/src/index.browser.js,
//             'wirepack/cbor' -> js/src/cbor.browser.js
//             (tests/**/*.node.test.js are Node-only and excluded here)
//   emcc    - Node, like `node`, but tests/setup-emcc.js first swaps in build/wirepack-emcc.wasm
// Run one with `npx vitest run --project node` (or browser / emcc).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_PATH, chromiumArgs } from './scripts/chromium.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const nodeEntry = here('./js/src/index.node.js');
const browserEntry = here('./js/src/index.browser.js');
const cborNodeEntry = here('./js/src/cbor.node.js');
const cborBrowserEntry = here('./js/src/cbor.browser.js');
const libNodeEntry = here('./js/src/msgpack.node.js');
const libBrowserEntry = here('./js/src/msgpack.browser.js');
const jpNodeEntry = here('./js/src/json-pack.node.js');
const jpBrowserEntry = here('./js/src/json-pack.browser.js');
const suiteJson = here('./node_modules/msgpack-test-suite/dist/msgpack-test-suite.json');

const include = ['tests/**/*.test.js'];
const exclude = ['**/node_modules/**', 'build/**', 'dist/**'];

// Exact-match aliases: 'wirepack' must not swallow e.g. 'wirepack/wirepack.wasm'.
const aliases = (entry, cborEntry, libEntry, jpEntry) => [
  { find: /^wirepack$/, replacement: entry },
  { find: /^wirepack\/cbor$/, replacement: cborEntry },
  { find: /^wirepack\/msgpack$/, replacement: libEntry },
  { find: /^wirepack\/json-pack$/, replacement: jpEntry },
  { find: /^msgpack-test-suite\/dist\/msgpack-test-suite\.json$/, replacement: suiteJson },
  { find: /^msgpack-test-suite$/, replacement: suiteJson },
];


export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: aliases(nodeEntry, cborNodeEntry, libNodeEntry, jpNodeEntry) },
        test: {
          name: 'node',
          environment: 'node',
          include,
          exclude,
          setupFiles: ['tests/setup-seed.js'],
          // the projects run side by side on CI's two cores: the heaviest property tests take
          // 3-4 s alone and once took 5.9 s there (a timeout catches a hang, not slowness)
          testTimeout: 30000,
        },
      },
      {
        resolve: { alias: aliases(browserEntry, cborBrowserEntry, libBrowserEntry, jpBrowserEntry) },
        // Pre-bundle the CJS/ESM test dependencies once so the browser can import them.
        optimizeDeps: {
          include: ['msgpackr', 'fast-check', '@msgpack/msgpack', 'cbor-x'],
        },
        test: {
          name: 'browser',
          include,
          exclude: [...exclude, 'tests/**/*.node.test.js'],
          setupFiles: ['tests/setup-seed.js'],
          testTimeout: 30000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: CHROMIUM_PATH,
                args: chromiumArgs(),
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        resolve: { alias: aliases(nodeEntry, cborNodeEntry, libNodeEntry, jpNodeEntry) },
        test: {
          name: 'emcc',
          environment: 'node',
          include,
          exclude,
          setupFiles: ['tests/setup-seed.js', 'tests/setup-emcc.js'],
          testTimeout: 30000, // as the node project
        },
      },
    ],
  },
});
