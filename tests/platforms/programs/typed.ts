// TypeScript: `tsc --noEmit --strict` over this file checks the .d.ts that ship in the tarball.
// Every `@ts-expect-error` line must be an error: if a type were `any`, tsc would fail.
import { pack, unpack, Packr, Unpackr, DecodeError, init, isInitialized } from 'wirepack';
import { encode, decode, Encoder, Decoder, DecodeError as CborDecodeError } from 'wirepack/cbor';
import { transcode, validate } from 'wirepack/transcode';

const packr = new Packr({ useFloat32: 0, maxDepth: 64 });
const unpackr = new Unpackr({ int64AsType: 'bigint', mapsAsObjects: true, maxBytes: 1 << 20 });
const bytes: Uint8Array = packr.pack({ id: 1n, when: new Date(), raw: new Uint8Array(2) });
const back: unknown = unpackr.unpack(bytes);
const plain: Uint8Array = pack([1, 'two']);
unpack(plain);

const cborBytes: Uint8Array = new Encoder({ deterministic: true }).encode({ a: 1 });
const item: unknown = new Decoder({ maxDepth: 8 }).decode(cborBytes);
decode(encode(item));

const json: string | Uint8Array = transcode(bytes, { from: 'msgpack', to: 'json', indent: 2 });
const check = validate(cborBytes, { format: 'cbor' });
if (!check.valid) console.log(check.error.code, check.error.offset);

export function describe(input: Uint8Array): string {
  try {
    return JSON.stringify(unpack(input));
  } catch (e) {
    if (e instanceof DecodeError) {
      const code: string = e.code;
      const offset: number = e.offset;
      const incomplete: boolean = e.incomplete;
      return `${code} at ${offset}${incomplete ? ' (more bytes may help)' : ''}`;
    }
    if (e instanceof CborDecodeError) return e.code;
    throw e;
  }
}

const ready: Promise<void> = init(new Uint8Array(0));
const loaded: boolean = isInitialized();

// @ts-expect-error pack returns bytes, not a string
const wrong: string = pack(1);
// @ts-expect-error int64AsType takes 'number' | 'bigint' | 'string' | 'auto'
new Unpackr({ int64AsType: 'decimal' });
// @ts-expect-error maxDepth is a number
new Packr({ maxDepth: 'deep' });
// @ts-expect-error deterministic is a boolean
new Encoder({ deterministic: 'yes' });
// @ts-expect-error unpack takes bytes
unpack('not bytes');
// @ts-expect-error 'xml' is not a format
transcode(bytes, { from: 'msgpack', to: 'xml' });
// @ts-expect-error DecodeError.offset is a number
const offsetText: string = new DecodeError('TRUNCATED', 3).offset;

export { back, ready, loaded, wrong, offsetText, json };
