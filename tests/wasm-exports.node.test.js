// @ts-check
// Contracts of the wasm exports (csrc/wp_wasm.c) that the JS wrapper relies on, checked on the
// raw exports: nothing else calls them with arguments the wrapper never passes.
import { expect, test } from 'vitest';
import { Encoder } from 'wirepack/cbor';
import { runtime } from '../js/src/runtime.js';

const WP_CBOR_DETERMINISTIC = 1, WP_CBOR_FLOAT64 = 2, WP_CBOR_INDEFINITE = 4;
const WP_ERR_BAD_TAPE = 302;

test('wpw_cbor_encode refuses deterministic and indefinite-length flags (wpw_cbor_encode_tracked takes them) instead of encoding without them', () => {
  new Encoder().encode(1); // the module is loaded and its arena laid out
  const rt = runtime();
  // an empty tape: both forms accept it with the flags they take, so a refusal is the flag check
  expect(rt.x.wpw_cbor_encode(0, 0, 0, 0, 0, 0)).toBe(0);
  expect(rt.x.wpw_cbor_encode(0, WP_CBOR_FLOAT64, 0, 0, 0, 0)).toBe(0);
  expect(rt.x.wpw_cbor_encode_tracked(0, WP_CBOR_DETERMINISTIC, 0, 0, 0)).toBe(0);
  expect(rt.x.wpw_cbor_encode_tracked(0, WP_CBOR_INDEFINITE, 0, 0, 0)).toBe(0);
  for (const flags of [WP_CBOR_DETERMINISTIC, WP_CBOR_INDEFINITE, WP_CBOR_DETERMINISTIC | WP_CBOR_FLOAT64]) {
    expect(rt.x.wpw_cbor_encode(0, flags, 0, 0, 0, 0)).toBe(WP_ERR_BAD_TAPE);
    rt.refresh();
    expect(rt.u32[rt.res + 12]).toBe(WP_ERR_BAD_TAPE);
  }
  // and the wrapper picks the export by the Encoder's options
  expect([...new Encoder({ deterministic: true }).encode({ b: 1, a: 2 })]).toEqual([0xa2, 0x61, 0x61, 0x02, 0x61, 0x62, 0x01]);
  expect([...new Encoder({ useRecords: false }).encode({ b: 1, a: 2 })]).toEqual([0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02]);
});
