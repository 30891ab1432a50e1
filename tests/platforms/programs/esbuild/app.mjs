// Browser bundle: `esbuild app.mjs --bundle --format=esm --outfile=dist/app.js`, loaded by
// index.html as <script type="module" src="dist/app.js">.
import * as msgpack from 'wirepack';
import * as cbor from 'wirepack/cbor';
import * as transcode from 'wirepack/transcode';
import { roundTrip } from '../check.mjs';

/** @type {any} */ (window).__wirepackResult = { platform: 'esbuild bundle', ...roundTrip(msgpack, cbor, transcode) };
