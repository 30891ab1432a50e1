// Every fast-check property runs from one fixed seed, so a run on CI is reproducible and a peer
// library's rare misbehaviour on some random input cannot make CI flaky. FC_SEED=<n> picks
// another seed (FC_SEED=random for a fresh one each run) when exploring locally.
import fc from 'fast-check';

const env = typeof process !== 'undefined' && process.env ? process.env.FC_SEED : undefined;
if (env !== 'random') fc.configureGlobal({ seed: env !== undefined && env !== '' ? Number(env) : 20261130 });
