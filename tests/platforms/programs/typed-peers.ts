// Code written for msgpackr and cbor-x as their own .d.ts type it: each export and option a
// TypeScript user meets, used the usual way. tests/platforms/run.mjs compiles it twice with tsc
// --strict: against msgpackr's and cbor-x's .d.ts (so that it is their users' code), and with the
// two import specifiers changed to wirepack and wirepack/cbor (so that switching is that change
// alone). When first written it gave 17 errors against wirepack: no Options, UnpackOptions or
// Encoder types; Uint8Array results where code calls Buffer methods on them; pack's
// encodeOptions; unpackMultiple's overloads; Packr#offset.
import { pack, unpack, Packr, Unpackr, Encoder, Decoder, addExtension, FLOAT32_OPTIONS, PackrStream, UnpackrStream, encodeIter, decodeIter, unpackMultiple, roundFloat32, RESERVE_START_SPACE, isNativeAccelerationEnabled, clearSource, C1 } from 'msgpackr';
import type { Options, UnpackOptions } from 'msgpackr';
import * as CBOR from 'cbor-x';
import type { Options as CborOptions } from 'cbor-x';

class Point { constructor(public x: number, public y: number) {} }
addExtension({ Class: Point, type: 11, pack(p: Point) { return Buffer.from([p.x, p.y]); }, unpack(b: Buffer | Uint8Array) { return new Point(b[0], b[1]); } });
addExtension({ Class: Point, type: 12, write(p: Point) { return [p.x, p.y]; }, read(a: number[]) { return new Point(a[0], a[1]); } });

const opts: Options = { useRecords: false, structuredClone: true, useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT, int64AsType: 'bigint', mapsAsObjects: true, moreTypes: true };
const packr = new Packr(opts);
const buf: Buffer = pack({ a: 1 });
const b64: string = pack({ a: 1 }).toString('base64');
const hexed: string = packr.pack([1, 2]).toString('hex');
const reserved: Buffer = pack({ a: 1 }, RESERVE_START_SPACE | 4);
const enc: Buffer = new Encoder().encode('x');
const u: any = unpack(buf);
const part: any = unpack(buf, { start: 0, end: buf.length });
const uo: UnpackOptions = 3;
const u2: any = new Unpackr({ structures: [] }).unpack(buf, uo);
const all: any[] = unpackMultiple(Buffer.concat([buf, buf]));
unpackMultiple(buf, (value, start, end) => { void value; void start; void end; });
const d: any = new Decoder().decode(buf);
const r: number = roundFloat32(1.1);
const nat: boolean = isNativeAccelerationEnabled;
clearSource();
void C1;
packr.useBuffer(Buffer.alloc(1024));
const pos: number = packr.offset;
let asType: Encoder = new Encoder(); let asType2: Decoder = new Decoder(); void asType; void asType2;
const shared = new Packr({ getStructures() { return []; }, saveStructures(s) { void s; return true; }, maxSharedStructures: 32, shouldShareStructure: (keys) => keys.length > 1 });
shared.clearSharedData();
const stream = new PackrStream({ useRecords: true });
const unstream = new UnpackrStream();
stream.pipe(unstream);
async function iter() {
  for await (const v of decodeIter([buf, buf])) void v;
  const out = encodeIter([{ a: 1 }] as any);
  void out;
}
void iter;

const cOpts: CborOptions = { useRecords: false, mapsAsObjects: true, tagUint8Array: false, useFloat32: CBOR.FLOAT32_OPTIONS.ALWAYS, pack: true, keyMap: { a: 1 } };
const cb: Buffer = CBOR.encode({ a: 1 });
const cb64: string = CBOR.encode([1]).toString('base64');
const cenc = new CBOR.Encoder(cOpts);
const cb2: Buffer = cenc.encode({ a: 1 });
const cv: any = CBOR.decode(cb);
const cv2: any = new CBOR.Decoder({ structures: [] }).decode(cb2);
const many = CBOR.decodeMultiple(Buffer.concat([cb, cb]));
CBOR.decodeMultiple(cb, (value) => { void value; });
CBOR.setSizeLimits({ maxArraySize: 10 });
CBOR.addExtension({ Class: Point, tag: 40500, encode(p: Point, encodeFn) { return encodeFn([p.x, p.y]); }, decode(a: any) { return new Point(a[0], a[1]); } });
const tag = new CBOR.Tag('x', 32);
const tagNum = tag.tag; // (wirepack: number | bigint, for tag numbers past 2^53)
const parts = CBOR.encodeAsIterable({ a: 1 });
const aparts = CBOR.encodeAsAsyncIterable({ a: 1 });
const es = new CBOR.EncoderStream();
const ds = new CBOR.DecoderStream({ maxIncompleteBufferSize: 1 << 20 });
es.pipe(ds);
const cnat: boolean = CBOR.isNativeAccelerationEnabled;
const cr: number = CBOR.roundFloat32(1.5);
CBOR.clearSource();

export { buf, b64, hexed, reserved, enc, u, part, u2, all, d, r, nat, pos, cb, cb64, cb2, cv, cv2, many, tagNum, parts, aparts, cnat, cr };
