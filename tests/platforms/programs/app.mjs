// Node ESM, Deno and Bun run this same file: `node app.mjs`, `deno run app.mjs`, `bun app.mjs`.
import * as msgpack from 'wirepack';
import * as cbor from 'wirepack/cbor';
import { pack, unpack } from 'wirepack';
import { encode, decode } from 'wirepack/cbor';
import * as transcode from 'wirepack/transcode';
import { roundTrip } from './check.mjs';

// README snippet: the basic calls, the same in every runtime
const bytes = pack({ id: 7n, when: new Date(0), tags: ['a', 'b'], raw: new Uint8Array([1, 2]) });
const value = unpack(bytes); // { id: 7n, when: Date, tags: [...], raw: Uint8Array }
const again = decode(encode(value));
if (again.id !== 7n || again.when.getTime() !== 0 || again.raw[1] !== 2) throw new Error('snippet failed');

const g = /** @type {any} */ (globalThis);
const platform = g.Deno ? `deno ${g.Deno.version.deno}` : g.Bun ? `bun ${g.Bun.version}` : `node ${process.version} (ESM)`;
// which file the export conditions chose (node: dist/esm/index.node.js; deno, bun: js/src/index.browser.js)
const entry = [import.meta.resolve('wirepack'), import.meta.resolve('wirepack/cbor'), import.meta.resolve('wirepack/transcode')];
console.log('WIREPACK_RESULT ' + JSON.stringify({ platform, entry, ...roundTrip(msgpack, cbor, transcode) }));
