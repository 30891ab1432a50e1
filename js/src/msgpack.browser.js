// @ts-check
/** Browser, worker, Deno and Bun entry for @msgpack/msgpack's API (`wirepack/msgpack`): ready after import. */
import './load.browser.js';

export * from './msgpack.js';
