// @ts-check
/** Node entry (`wirepack/transcode`): the transcode wasm module is compiled synchronously on import. */
import './load.node.js';
import { transcodeWasmBase64 } from './transcode-inline.js';
import { initTranscodeSync, isTranscodeInitialized } from './transcode.js';

if (!isTranscodeInitialized()) initTranscodeSync(Buffer.from(transcodeWasmBase64, 'base64'));

export * from './transcode.js';
