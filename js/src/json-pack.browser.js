// @ts-check
/** Browser, worker, Deno and Bun entry for json-pack's codec classes (`wirepack/json-pack`): ready after import. */
import './load.browser.js';

export * from './json-pack.js';
