// msgpackr's and cbor-x's own test suites, with wirepack in their place: the dist/test.js that
// each publishes (its tests bundled with its own code) is read from node_modules as installed,
// its test part is run with wirepack's exports under the names the tests use, and each of its
// tests becomes a test here (tests/helpers/peer-suites.js). A user switching from either library
// expects what those tests check. The few that test something wirepack does differently on
// purpose, or does not have, are listed there with the reason; they must keep failing
// (test.fails), so the list stays true. Node only (the bundles read their fixtures from disk and
// use Node's streams). tests/peer-suites-eval-free.node.test.js runs msgpackr's again without
// code generation (a file of its own: both runs register extensions in the same global tables).
import { describe } from 'vitest';
import * as mp from 'wirepack';
import { msgpackrSuite, cborxSuite } from './helpers/peer-suites.js';

describe("msgpackr 2's own tests (node_modules/msgpackr/dist/test.js), with wirepack", () => {
  msgpackrSuite(mp.Packr, mp.Unpackr);
});

describe("cbor-x's own tests (node_modules/cbor-x/dist/test.js), with wirepack/cbor", () => {
  cborxSuite();
});
