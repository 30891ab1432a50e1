// msgpackr's own test suite (tests/peer-suites.node.test.js) again, with every Packr and Unpackr
// its tests make on the eval-free path (codegen: false): the path that runs where a CSP forbids
// code generation gives what msgpackr's tests expect too.
import { describe } from 'vitest';
import * as mp from 'wirepack';
import { msgpackrSuite } from './helpers/peer-suites.js';

describe("msgpackr's own tests again, every Packr and Unpackr they make eval-free (codegen: false)", () => {
  class Packr extends mp.Packr {
    /** @param {any} [o] */
    constructor(o) { super({ codegen: false, ...o }); }
  }
  class Unpackr extends mp.Unpackr {
    /** @param {any} [o] */
    constructor(o) { super({ codegen: false, ...o }); }
  }
  msgpackrSuite(/** @type {any} */ (Packr), /** @type {any} */ (Unpackr));
});

