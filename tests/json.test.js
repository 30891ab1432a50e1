// JSON input conformance (RFC 8259) of wirepack/transcode, in the y_/n_/i_ style of JSONTestSuite:
// y_ must be accepted and give what JSON.parse gives, n_ must be rejected (JSON.parse rejects
// them too: checked), i_ are implementation-defined and pinned to the documented choice.
// Cases are written here (not copied from any suite).
import { describe, test, expect } from 'vitest';
import { unpack } from 'wirepack';
import { decode as cborDecode } from 'wirepack/cbor';
import { transcode, validate } from './helpers/transcode.js';

/** @type {Record<string, string>} */
const Y = {
  y_array_empty: '[]',
  y_array_empty_ws: '[ \t\r\n]',
  y_array_nested: '[[[[[]]]]]',
  y_array_mixed: '[1,"a",true,false,null,{},[],-0.5e-3]',
  y_array_ws_everywhere: ' [ 1 , 2 ] ',
  y_object_empty: '{}',
  y_object_basic: '{"a":1,"b":[2],"c":{"d":null}}',
  y_object_ws: '{ "a" : 1 , "b" :2 }',
  y_object_duplicate_keys: '{"a":1,"a":2}',
  y_object_empty_key: '{"":0}',
  y_object_proto_key: '{"__proto__":{"x":1}}',
  y_object_unicode_key: '{"\u00e9\u4e2d":1}',
  y_object_escaped_key: '{"\\u0061\\n":1}',
  y_object_int_keys_order: '{"b":1,"2":2,"1":3}',
  y_number_zero: '0',
  y_number_negative_zero: '-0',
  y_number_negative_zero_frac: '-0.0',
  y_number_int: '123456789',
  y_number_negative_int: '-2147483648',
  y_number_u32_max: '4294967295',
  y_number_beyond_u32: '4294967296',
  y_number_beyond_i32: '-2147483649',
  y_number_frac: '3.14159',
  y_number_exp: '1e10',
  y_number_exp_upper: '1E10',
  y_number_exp_plus: '1e+10',
  y_number_exp_minus: '1e-10',
  y_number_frac_exp: '1.5e300',
  y_number_int_exp_zero: '0e0',
  y_number_leading_zero_frac: '0.001',
  y_number_max_double: '1.7976931348623157e308',
  y_number_min_subnormal: '5e-324',
  y_number_huge_exp_zero: '0e99999999999',
  y_number_many_digits: '3.141592653589793238462643383279502884197169399375105820974944',
  y_number_max_safe: '9007199254740991',
  y_number_beyond_safe: '9007199254740993',
  y_number_20_digits: '12345678901234567890',
  y_number_int_as_float: '1.0',
  y_number_overflow_to_infinity: '1e400',
  y_number_underflow_to_zero: '1e-400',
  y_number_neg_overflow: '-1e400',
  y_string_empty: '""',
  y_string_simple: '"abc"',
  y_string_escapes: '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
  y_string_u_escape: '"\\u0041\\u00e9\\u4e2d\\uFFFF"',
  y_string_surrogate_pair: '"\\ud83d\\ude00"',
  y_string_utf8_2: '"\u00e9"',
  y_string_utf8_3: '"\u20ac\u4e2d"',
  y_string_utf8_4: '"\ud83d\ude00"',
  y_string_del: '"\u007f"',
  y_string_u0000: '"\\u0000"',
  y_string_slash_unescaped: '"a/b"',
  y_string_long: JSON.stringify('x'.repeat(70000)),
  y_string_nbsp_in_string: '"\u00a0"',
  y_string_line_separator: '"\u2028\u2029"',
  y_literal_true: 'true',
  y_literal_false: 'false',
  y_literal_null: 'null',
  y_ws_around_scalar: ' \n\t 1 \r\n',
  y_deep_500: '['.repeat(500) + ']'.repeat(500),
};

/** @type {Record<string, string>} */
const N = {
  n_empty: '',
  n_ws_only: '  \n',
  n_array_trailing_comma: '[1,]',
  n_array_leading_comma: '[,1]',
  n_array_double_comma: '[1,,2]',
  n_array_missing_comma: '[1 2]',
  n_array_unclosed: '[1',
  n_array_unclosed_comma: '[1,',
  n_array_colon: '[1:2]',
  n_array_extra_close: '[1]]',
  n_array_close_mismatch: '[1}',
  n_object_trailing_comma: '{"a":1,}',
  n_object_missing_colon: '{"a" 1}',
  n_object_missing_value: '{"a":}',
  n_object_unquoted_key: '{a:1}',
  n_object_single_quotes: "{'a':1}",
  n_object_number_key: '{1:1}',
  n_object_unclosed: '{"a":1',
  n_object_close_mismatch: '{"a":1]',
  n_object_comma_instead_of_colon: '{"a",1}',
  n_object_double_colon: '{"a"::1}',
  n_number_plus: '+1',
  n_number_leading_zero: '01',
  n_number_neg_leading_zero: '-01',
  n_number_dot_start: '.5',
  n_number_dot_end: '1.',
  n_number_exp_empty: '1e',
  n_number_exp_sign_only: '1e+',
  n_number_minus_only: '-',
  n_number_minus_space: '- 1',
  n_number_hex: '0x10',
  n_number_infinity: 'Infinity',
  n_number_nan: 'NaN',
  n_number_neg_infinity: '-Infinity',
  n_number_two_dots: '1.2.3',
  n_number_comma_decimal: '1,5',
  n_number_trailing_letter: '1a',
  n_string_unclosed: '"abc',
  n_string_single_quote: "'abc'",
  n_string_control_tab: '"a\tb"',
  n_string_control_newline: '"a\nb"',
  n_string_control_nul: '"a\u0000b"',
  n_string_bad_escape: '"\\x41"',
  n_string_escape_apostrophe: '"\\\'"',
  n_string_short_u: '"\\u12"',
  n_string_u_nonhex: '"\\u12G4"',
  n_string_backslash_end: '"\\',
  n_string_uppercase_U: '"\\U0041"',
  n_literal_True: 'True',
  n_literal_nul: 'nul',
  n_literal_nulll: 'nulll',
  n_literal_undefined: 'undefined',
  n_two_values: '1 2',
  n_two_objects: '{}{}',
  n_comment_line: '[1] // c',
  n_comment_block: '/* c */ [1]',
  n_bom: '\ufeff[1]',
  n_nbsp_ws: '\u00a0[1]',
  n_vertical_tab_ws: '\u000b[1]',
  n_form_feed_ws: '\f[1]',
};

/** Bytes that are not UTF-8 (no JavaScript string can hold them: checked against TextDecoder). */
/** @type {Record<string, number[]>} */
const N_UTF8 = {
  n_utf8_lone_continuation: [0x22, 0x80, 0x22],
  n_utf8_overlong_2: [0x22, 0xc0, 0xaf, 0x22],
  n_utf8_overlong_3: [0x22, 0xe0, 0x80, 0xaf, 0x22],
  n_utf8_surrogate: [0x22, 0xed, 0xa0, 0x80, 0x22],
  n_utf8_above_10ffff: [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22],
  n_utf8_f5: [0x22, 0xf5, 0x80, 0x80, 0x80, 0x22],
  n_utf8_truncated_seq: [0x22, 0xe2, 0x82, 0x22],
  n_utf8_ff: [0x22, 0xff, 0x22],
  n_utf8_in_key: [0x7b, 0x22, 0xc3, 0x22, 0x3a, 0x31, 0x7d],
};

describe('y_: accepted, and equal to JSON.parse in every output format', () => {
  test.each(Object.entries(Y))('%s', (name, text) => {
    const parsed = JSON.parse(text);
    // -0 is written as the integer 0 in MessagePack (as pack and msgpackr write it) and as
    // the float -0.0 in CBOR (as encode writes it)
    const want = Object.is(parsed, -0) ? 0 : parsed;
    const mp = /** @type {Uint8Array} */ (transcode(text, { from: 'json', to: 'msgpack' }));
    const cb = /** @type {Uint8Array} */ (transcode(text, { from: 'json', to: 'cbor' }));
    expect(unpack(mp)).toEqual(want);
    expect(cborDecode(cb)).toEqual(parsed);
    // exact doubles
    if (typeof want === 'number') expect(Object.is(unpack(mp), want)).toBe(true);
    if (typeof want === 'number') expect(Object.is(cborDecode(cb), parsed)).toBe(true);
    // and back to text: JSON.stringify(JSON.parse(text)) (key order aside: integer keys)
    if (name !== 'y_object_int_keys_order' && name !== 'y_object_duplicate_keys') {
      expect(transcode(mp, { from: 'msgpack', to: 'json' })).toBe(JSON.stringify(want));
      expect(transcode(cb, { from: 'cbor', to: 'json' })).toBe(JSON.stringify(want));
    }
    expect(validate(text, { format: 'json' })).toEqual({ valid: true });
  });
});

describe('n_: rejected with an offset, as JSON.parse rejects them', () => {
  test.each(Object.entries(N))('%s', (name, text) => {
    expect(() => JSON.parse(text), 'JSON.parse agrees').toThrow(SyntaxError);
    let err;
    try { transcode(text, { from: 'json', to: 'msgpack' }); } catch (e) { err = e; }
    expect(err, name).toBeDefined();
    expect(['JSON_SYNTAX', 'TRUNCATED', 'TRAILING_DATA']).toContain(err.code);
    expect(err.offset).toBeGreaterThanOrEqual(0);
    expect(err.offset).toBeLessThanOrEqual(new TextEncoder().encode(text).length);
    const r = validate(text, { format: 'json' });
    expect(r.valid).toBe(false);
    if (!r.valid) expect([r.error.code, r.error.offset]).toEqual([err.code, err.offset]);
    // incomplete exactly when more input could make it valid
    expect(err.incomplete).toBe(err.code === 'TRUNCATED');
  });
  test.each(Object.entries(N_UTF8))('%s', (name, bytes) => {
    const b = new Uint8Array(bytes);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(b)).toThrow();
    expect(() => transcode(b, { from: 'json', to: 'cbor' })).toThrow(expect.objectContaining({ code: 'BAD_UTF8' }));
    // the offset is the first byte of the bad sequence
    const first = bytes.findIndex((x, i) => i > 0 && x >= 0x80);
    expect(validate(b, { format: 'json' })).toMatchObject({ valid: false, error: { code: 'BAD_UTF8', offset: first } });
  });
});

describe('i_: implementation-defined choices', () => {
  test('i_lone_surrogate_escapes become U+FFFD (what TextEncoder makes of the string JSON.parse returns)', () => {
    for (const text of ['"\\ud800"', '"\\udc00x"', '"\\ud800\\ud800"', '"a\\ud83d"']) {
      const s = JSON.parse(text);
      expect(unpack(/** @type {Uint8Array} */ (transcode(text, { from: 'json', to: 'msgpack' })))).toBe(new TextDecoder().decode(new TextEncoder().encode(s)));
    }
  });
  test('i_number_huge_exponents saturate like JSON.parse', () => {
    for (const text of ['1e999999999999999999', '-1e999999999999999999', '1e-999999999999999999', '0.0000001e999999']) {
      expect(unpack(/** @type {Uint8Array} */ (transcode(text, { from: 'json', to: 'msgpack' })))).toBe(JSON.parse(text) === 0 ? 0 : JSON.parse(text));
    }
  });
  test('i_depth: 1000 levels by default, maxDepth to change it', () => {
    const ok = '['.repeat(1000) + ']'.repeat(1000);
    const deep = '['.repeat(1001) + '1' + ']'.repeat(1001);
    expect(validate(ok, { format: 'json' })).toEqual({ valid: true });
    expect(validate(deep, { format: 'json' })).toMatchObject({ valid: false, error: { code: 'DEPTH' } });
    expect(validate(deep, { format: 'json', maxDepth: 2000 })).toEqual({ valid: true });
  });
  test('i_duplicate_keys are kept in order: decoding keeps the last, as JSON.parse does', () => {
    const mp = /** @type {Uint8Array} */ (transcode('{"a":1,"b":2,"a":3}', { from: 'json', to: 'msgpack' }));
    expect(Array.from(mp.subarray(0, 1))).toEqual([0x83]);
    expect(unpack(mp)).toEqual(JSON.parse('{"a":1,"b":2,"a":3}'));
  });
});
