// Vite production build (`vite build`): index.html loads this module.
import * as msgpack from 'wirepack';
import * as cbor from 'wirepack/cbor';
import * as transcode from 'wirepack/transcode';
import { roundTrip } from '../check.mjs';

/** @type {any} */ (window).__wirepackResult = { platform: 'vite build', ...roundTrip(msgpack, cbor, transcode) };
