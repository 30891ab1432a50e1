// workerd (Cloudflare Workers): decodes a POSTed MessagePack body and answers with CBOR.
// Workers may not compile wasm from bytes: the module comes in as a binding-style import
// (a CompiledWasm module) and is handed to init().
import { init, unpack, DecodeError } from 'wirepack';
import * as msgpack from 'wirepack';
import * as cbor from 'wirepack/cbor';
import * as transcode from 'wirepack/transcode';
import wasm from 'wirepack/wirepack.wasm';
import transcodeWasm from 'wirepack/transcode.wasm';
import { roundTrip } from '../check.mjs';

await init(wasm);
await transcode.initTranscode(transcodeWasm);

export default {
  /** @param {Request} request */
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/check') {
      return Response.json({ platform: `workerd ${globalThis.navigator?.userAgent ?? ''}`.trim(), ...roundTrip(msgpack, cbor, transcode) });
    }
    if (request.method !== 'POST') return new Response('POST a MessagePack body\n', { status: 405 });
    try {
      const value = unpack(new Uint8Array(await request.arrayBuffer()));
      return new Response(cbor.encode({ received: value, keys: Object.keys(value).length }), {
        headers: { 'content-type': 'application/cbor' },
      });
    } catch (e) {
      if (e instanceof DecodeError) {
        return Response.json({ code: e.code, offset: e.offset, incomplete: e.incomplete }, { status: 400 });
      }
      throw e;
    }
  },
};
