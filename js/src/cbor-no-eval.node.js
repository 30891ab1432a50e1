// @ts-check
/**
 * `wirepack/cbor/index-no-eval` (also `wirepack/cbor/decode-no-eval`), as cbor-x's: the whole API of
 * `wirepack/cbor`, with code generation off from now on in this process or page: the eval-free decoders
 * only, with no `new Function` and not even its probe (which a CSP without unsafe-eval reports).
 * The global is what decode.js's canCodegen reads; setting it after the re-export above is in time,
 * since nothing is decoded while modules load.
 */
export * from './cbor.node.js';

/** @type {any} */ (globalThis)[Symbol.for('wirepack.noEval')] = true;
