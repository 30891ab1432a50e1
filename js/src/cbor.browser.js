// @ts-check
/** Browser/worker entry for CBOR (`wirepack/cbor`): ready after import (top-level await). */
import './load.browser.js';

export * from './cbor.js';
