/*
 * wirepack_cli.c: the `wirepack` command, a native binary over the C library (libwirepack.a).
 * Flags follow msgpack-lite's CLI, plus CBOR, diagnostic notation, validation and find.
 * Run `wirepack --help`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "wirepack.h"

static const char *USAGE =
    "Usage: wirepack [-MJSC] [-mjc] [-1|-2] [--diag|--validate|--find PATH] [infile|-] [outfile|-]\n"
    "\n"
    "Converts between MessagePack, CBOR and JSON without building values (msgpack-lite's flags).\n"
    "\n"
    "Input (default -M):\n"
    "  -M   MessagePack: a stream of concatenated messages\n"
    "  -C   CBOR: a stream of concatenated items\n"
    "  -J   JSON: one document (RFC 8259, strict)\n"
    "  -S   JSON values separated by newlines or other whitespace (NDJSON)\n"
    "Output (default -m):\n"
    "  -m   MessagePack\n"
    "  -c   CBOR\n"
    "  -j   JSON, one line per value (JSON.stringify(decode(value)), map keys in wire order)\n"
    "  -1   JSON with one space of indentation (-j implied)\n"
    "  -2   JSON with two spaces of indentation (-j implied)\n"
    "Other modes:\n"
    "  --diag         print diagnostic notation (RFC 8949: h'..', tags, [_ ..], 1.0, undefined, ...)\n"
    "  --validate     check the input (well-formed, depth, UTF-8): prints \"ok\" and the value count\n"
    "  --find PATH    print the value at PATH (a JSON Pointer such as /a/0/b), in the output format\n"
    "  --max-depth N  nesting limit (default 1000)\n"
    "  -h, --help     this message\n"
    "\n"
    "Files: '-' or nothing means stdin / stdout; a stream from a pipe is converted as it arrives.\n"
    "Errors name the byte offset and exit with 1 (2 for usage errors).\n"
    "\n"
    "Example: echo '{\"foo\": \"bar\"}' | wirepack -J -m | xxd   ->  81 a3 66 6f 6f a3 62 61 72\n";

static int usage_error(const char *msg, const char *arg) {
    fprintf(stderr, "wirepack: %s%s%s\n(see wirepack --help)\n", msg, arg ? " " : "", arg ? arg : "");
    return 2;
}

static uint8_t *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n == cap) {
            cap *= 2;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) { free(buf); return NULL; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    *len = n;
    return buf;
}

/* Output goes through a fixed buffer that the transcoder flushes as it fills (grown only for a
 * single string that does not fit), so memory stays small and no page is touched twice. */
typedef struct cli_sink { FILE *out; int failed; } cli_sink;
static uint8_t *cli_flush(void *user, uint8_t *buf, uint32_t n, uint32_t need, uint32_t *cap) {
    cli_sink *s = user;
    if (n && fwrite(buf, 1, n, s->out) != n) { s->failed = 1; return NULL; }
    if (need > *cap) {
        uint32_t c = need > 0x7FFFFFFFu ? need : need * 2 > 0xFFFFFFF0u ? 0xFFFFFFF0u : need * 2;
        uint8_t *nb = realloc(buf, c);
        if (!nb) return NULL;
        *cap = c;
        return nb;
    }
    return buf;
}

static const char *fmt_name(uint32_t f) { return f == WP_FMT_JSON ? "JSON" : f == WP_FMT_CBOR ? "CBOR" : "MessagePack"; }

static int fail(wp_err e, uint64_t off, uint32_t from) {
    fprintf(stderr, "wirepack: %s input: %s at byte %llu\n", fmt_name(from), wp_tc_err_name(e), (unsigned long long)off);
    return 1;
}

/* in[0..len) to `to` (flags: WP_TC_*), streamed to out through a 256 KB buffer; error offsets
 * are reported from `base` (where in starts in the file). Returns the exit code. */
static int write_out(const uint8_t *in, uint32_t len, uint64_t base, uint32_t from, uint32_t to, uint32_t flags,
                     uint32_t indent, uint32_t max_depth, uint32_t *scratch, uint32_t sw, FILE *out) {
    cli_sink sink = {out, 0};
    wp_transcoder t;
    memset(&t, 0, sizeof t);
    t.in = in; t.len = len; t.from = from; t.to = to; t.indent = indent; t.max_depth = max_depth;
    t.flags = flags;
    t.scratch = scratch; t.scratch_cap = sw;
    t.out_cap = 1u << 18;
    t.out = malloc(t.out_cap);
    if (!t.out) { fprintf(stderr, "wirepack: out of memory\n"); return 1; }
    t.flush = cli_flush; t.flush_user = &sink;
    wp_err e = wp_transcode(&t);
    int rc = 0;
    if (sink.failed) { fprintf(stderr, "wirepack: write error\n"); rc = 1; }
    else if (e != WP_OK) {
        /* the values of a stream before the error are written, as value-by-value output would
         * be (one document with an error writes nothing, unless it was larger than the buffer) */
        if (flags & WP_TC_MULTIPLE) fwrite(t.out, 1, t.out_len, out);
        rc = fail(e, base + t.err.offset, from);
    } else if (fwrite(t.out, 1, t.out_len, out) != t.out_len) { fprintf(stderr, "wirepack: write error\n"); rc = 1; }
    free(t.out);
    return rc;
}

/* ------------------------------------------------------------------ input from a pipe */

/* A stream (-M, -C, -S) from a pipe is converted as it arrives: the complete values among the
 * bytes read so far are converted and written (and stdout flushed) before reading on, so a live
 * stream shows its values as they come and memory holds about one value, not the whole stream.
 * A value cut short by the end of what was read (TRUNCATED before the end of input) waits for
 * more: it is tried again when nothing more is waiting in the pipe (a value of up to 1 MB), once
 * the bytes pending have doubled (so a large value costs about two passes, not one per read),
 * or at the end of input, where TRUNCATED is the input's error. JSON
 * is converted up to the last newline read (a number at the very end could go on). Output goes
 * through a buffer grown as needed (no sink: a value cut short must leave no output behind). */
typedef struct cli_stream {
    uint32_t from, to, flags, indent, max_depth;
    FILE *out;
    uint8_t *o; size_t ocap;        /* output buffer, reused */
    uint8_t *mid; size_t midcap;    /* JSON -> JSON: the MessagePack in between */
    uint32_t *scratch; size_t swords;
} cli_stream;

static int cli_grow(uint8_t **p, size_t *cap, size_t want) {
    if (want <= *cap) return 1;
    uint8_t *n = realloc(*p, want);
    if (!n) return 0;
    *p = n; *cap = want;
    return 1;
}

/* cs->scratch grown to wp_transcode_scratch_words(len) (kept for the next calls); 0: no memory */
static int cli_scratch(cli_stream *cs, uint32_t len) {
    uint32_t sw = wp_transcode_scratch_words(len, cs->max_depth);
    if (sw <= cs->swords) return 1;
    uint32_t *ns = realloc(cs->scratch, (size_t)sw * 4);
    if (!ns) return 0;
    cs->scratch = ns;
    cs->swords = sw;
    return 1;
}

/* in[0..len) (from, to as cs says; MULTIPLE) into *dst; *cap grown while OUTPUT_FULL. Returns
 * the error; t->end and t->out_len say what converted. */
static wp_err cli_convert(cli_stream *cs, const uint8_t *in, uint32_t len, uint32_t from, uint32_t to, uint32_t flags,
                          uint32_t indent, uint8_t **dst, size_t *cap, wp_transcoder *t) {
    if (!cli_scratch(cs, len)) return WP_ERR_SCRATCH;
    /* the bound first, up to twice the input: a large value's JSON rarely needs its 8x bound,
     * and more is asked for (the call made again) only when it does */
    size_t want = wp_transcode_out_bound(from, to, len);
    if (want > 2 * (size_t)len + (1u << 20)) want = 2 * (size_t)len + (1u << 20);
    for (int attempt = 0;; attempt++) {
        if (!cli_grow(dst, cap, want)) return WP_ERR_SCRATCH;
        memset(t, 0, sizeof *t);
        t->in = in; t->len = len; t->from = from; t->to = to; t->flags = flags | WP_TC_MULTIPLE;
        t->indent = indent; t->max_depth = cs->max_depth;
        t->out = *dst; t->out_cap = *cap > 0xFFFFFFF0u ? 0xFFFFFFF0u : (uint32_t)*cap;
        t->scratch = cs->scratch; t->scratch_cap = (uint32_t)cs->swords;
        wp_err e = wp_transcode(t);
        /* indentation and diagnostic notation can need more than the bound */
        if (e == WP_ERR_OUTPUT_FULL && attempt < 12 && *cap < 0xFFFFFFF0u) { want = *cap * 2; continue; }
        return e;
    }
}

static int stream_pipe(int fd, cli_stream *cs) {
    const int json = cs->from == WP_FMT_JSON;
    size_t cap = 1 << 16, n = 0;
    size_t nl = 0;   /* JSON: bytes up to the last newline read */
    size_t pend = 0; /* bytes held after a value was cut short (0: none) */
    uint64_t base = 0; /* stream offset of buf[0] */
    uint8_t *buf = malloc(cap);
    int eof = 0, rc = 0, again = 0;
    if (!buf) { fprintf(stderr, "wirepack: out of memory\n"); return 1; }
    for (;;) {
        if (!eof && !again) {
            if (n == cap) {
                if (cap >= 0xFFFFFFF0u) { fprintf(stderr, "wirepack: a value larger than 4 GiB\n"); rc = 1; break; }
                size_t nc = cap * 2 > 0xFFFFFFF0u ? 0xFFFFFFF0u : cap * 2;
                if (!cli_grow(&buf, &cap, nc)) { fprintf(stderr, "wirepack: out of memory\n"); rc = 1; break; }
            }
            ssize_t r = read(fd, buf + n, cap - n);
            if (r < 0) {
                if (errno == EINTR) continue;
                fprintf(stderr, "wirepack: read error: %s\n", strerror(errno)); rc = 1; break;
            }
            if (r == 0) eof = 1;
            else if (json) {
                for (size_t i = n + (size_t)r; i > n; i--) if (buf[i - 1] == '\n') { nl = i; break; }
            }
            n += (size_t)r;
            if (!eof) {
                if (json && nl == 0) continue; /* no complete line yet */
                if (pend && n < 2 * pend) {
                    /* a value cut short: read on while more is waiting in the pipe, or, above
                     * 1 MB, until the bytes held have doubled */
                    struct pollfd pf = {fd, POLLIN, 0};
                    if (pend > (1u << 20) || poll(&pf, 1, 0) > 0) continue;
                }
            }
        }
        again = 0;
        uint32_t lim = (uint32_t)(json && !eof ? nl : n);
        if (lim == 0) { if (eof) break; continue; }
        if (pend > (1u << 20) && !(json && cs->to == WP_FMT_JSON)) {
            /* a large value cut short: check that it is complete before converting it, then
             * convert it through the sink (no output buffer of its size; it cannot fail half
             * way for want of input) */
            if (!cli_scratch(cs, lim)) { fprintf(stderr, "wirepack: out of memory\n"); rc = 1; break; }
            wp_error ve;
            wp_err v = wp_validate(buf, lim, cs->from, 0, cs->max_depth, cs->scratch, (uint32_t)cs->swords, &ve);
            if (v == WP_ERR_TRUNCATED && !eof) { pend = n; continue; }
            if (v == WP_OK || v == WP_ERR_TRAILING_DATA) {
                uint32_t end = v == WP_OK ? lim : ve.offset;
                rc = write_out(buf, end, base, cs->from, cs->to, cs->flags | WP_TC_MULTIPLE, cs->indent, cs->max_depth,
                               cs->scratch, (uint32_t)cs->swords, cs->out);
                if (rc) break;
                if (fflush(cs->out)) { fprintf(stderr, "wirepack: write error\n"); rc = 1; break; }
                memmove(buf, buf + end, n - end);
                base += end;
                n -= end;
                nl = nl > end ? nl - end : 0;
                pend = 0;
                again = n > 0; /* the bytes after it first, without waiting for more */
                if (eof && n == 0) break;
                continue;
            }
            /* otherwise the conversion below says what is wrong (or replaces what validate
             * refuses: ill-formed UTF-8) */
        }
        wp_transcoder t;
        wp_err e;
        uint32_t consumed, err_off;
        uint32_t olen;
        if (json && cs->to == WP_FMT_JSON) {
            /* JSON -> JSON (re-indent, NDJSON): through MessagePack, as for a file */
            e = cli_convert(cs, buf, lim, WP_FMT_JSON, WP_FMT_MSGPACK, 0, 0, &cs->mid, &cs->midcap, &t);
            consumed = t.end;
            err_off = t.err.offset;
            wp_err e2 = cli_convert(cs, cs->mid, t.out_len, WP_FMT_MSGPACK, WP_FMT_JSON, cs->flags, cs->indent, &cs->o, &cs->ocap, &t);
            if (e2 != WP_OK) { e = e2; err_off = consumed; }
        } else {
            e = cli_convert(cs, buf, lim, cs->from, cs->to, cs->flags, cs->indent, &cs->o, &cs->ocap, &t);
            consumed = t.end;
            err_off = t.err.offset;
        }
        olen = t.out_len;
        if (olen && fwrite(cs->o, 1, olen, cs->out) != olen) { fprintf(stderr, "wirepack: write error\n"); rc = 1; break; }
        if (fflush(cs->out)) { fprintf(stderr, "wirepack: write error\n"); rc = 1; break; }
        if (e == WP_ERR_TRUNCATED && !eof) {
            /* the last value goes on past what was read: keep it, read on */
            memmove(buf, buf + consumed, n - consumed);
            base += consumed;
            n -= consumed;
            nl = nl > consumed ? nl - consumed : 0;
            pend = n;
            continue;
        }
        if (e == WP_ERR_SCRATCH) { fprintf(stderr, "wirepack: out of memory\n"); rc = 1; break; }
        if (e != WP_OK) {
            fprintf(stderr, "wirepack: %s input: %s at byte %llu\n", fmt_name(cs->from), wp_tc_err_name(e),
                    (unsigned long long)(base + err_off));
            rc = 1;
            break;
        }
        /* everything up to lim converted (JSON: the whitespace after the last value too) */
        memmove(buf, buf + lim, n - lim);
        base += lim;
        n -= lim;
        nl = 0;
        pend = 0;
        if (eof && n == 0) break;
    }
    free(buf);
    return rc;
}

/* JSON Pointer (RFC 6901) -> steps; the strings live in buf */
static int parse_path(const char *p, wp_path_step *steps, uint32_t max, uint32_t *n, char *buf) {
    *n = 0;
    if (*p == 0) return 1;
    if (*p != '/') return 0;
    while (*p == '/') {
        if (*n >= max) return 0;
        p++;
        char *start = buf;
        while (*p && *p != '/') {
            if (*p == '~' && p[1] == '0') { *buf++ = '~'; p += 2; }
            else if (*p == '~' && p[1] == '1') { *buf++ = '/'; p += 2; }
            else *buf++ = *p++;
        }
        steps[*n].key = (const uint8_t *)start;
        steps[*n].key_len = (uint32_t)(buf - start);
        steps[*n].index = 0;
        (*n)++;
    }
    return 1;
}

int main(int argc, char **argv) {
    uint32_t from = WP_FMT_MSGPACK, to = WP_FMT_MSGPACK, indent = 0, max_depth = 0, flags = 0;
    int diag = 0, validate = 0, ndjson = 0;
    const char *find = NULL, *inpath = NULL, *outpath = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(USAGE, stdout); return 0; }
        if (!strcmp(a, "--diag")) { diag = 1; continue; }
        if (!strcmp(a, "--validate")) { validate = 1; continue; }
        if (!strcmp(a, "--find")) {
            if (++i >= argc) return usage_error("--find needs a PATH", NULL);
            find = argv[i];
            continue;
        }
        if (!strcmp(a, "--max-depth")) {
            if (++i >= argc) return usage_error("--max-depth needs a number", NULL);
            max_depth = (uint32_t)strtoul(argv[i], NULL, 10);
            continue;
        }
        if (a[0] == '-' && a[1] == '-') return usage_error("unknown option", a);
        if (a[0] == '-' && a[1]) {
            for (const char *c = a + 1; *c; c++) {
                switch (*c) {
                case 'M': from = WP_FMT_MSGPACK; ndjson = 0; break;
                case 'C': from = WP_FMT_CBOR; ndjson = 0; break;
                case 'J': from = WP_FMT_JSON; ndjson = 0; break;
                case 'S': from = WP_FMT_JSON; ndjson = 1; break;
                case 'm': to = WP_FMT_MSGPACK; break;
                case 'c': to = WP_FMT_CBOR; break;
                case 'j': to = WP_FMT_JSON; break;
                case '1': to = WP_FMT_JSON; indent = 1; break;
                case '2': to = WP_FMT_JSON; indent = 2; break;
                case 'h': fputs(USAGE, stdout); return 0;
                default: {
                    char opt[3] = {'-', *c, 0};
                    return usage_error("unknown option", opt);
                }
                }
            }
            continue;
        }
        if (!inpath) inpath = a;
        else if (!outpath) outpath = a;
        else return usage_error("too many arguments:", a);
    }
    FILE *in = stdin, *out = stdout;
    if (inpath && strcmp(inpath, "-")) {
        in = fopen(inpath, "rb");
        if (!in) { fprintf(stderr, "wirepack: %s: %s\n", inpath, strerror(errno)); return 1; }
    }
    size_t len = 0;
    uint8_t *buf = NULL;
    uint8_t *mapped = NULL;
    {
        /* a regular file is mapped (no copy); pipes are read into memory */
        struct stat st;
        int fd = fileno(in);
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
            if (m != MAP_FAILED) { mapped = m; len = (size_t)st.st_size; }
        }
    }
    if (!mapped && (from != WP_FMT_JSON || ndjson) && !validate && !find) {
        /* a stream from a pipe: converted as it arrives */
        if (outpath && strcmp(outpath, "-")) {
            out = fopen(outpath, "wb");
            if (!out) { fprintf(stderr, "wirepack: %s: %s\n", outpath, strerror(errno)); return 1; }
        }
        cli_stream cs;
        memset(&cs, 0, sizeof cs);
        cs.from = from; cs.to = diag ? WP_FMT_JSON : to; cs.indent = indent; cs.max_depth = max_depth; cs.out = out;
        cs.flags = (diag ? WP_TC_DIAG : 0) | (cs.to == WP_FMT_JSON ? WP_TC_LINES | WP_TC_WIRE_ORDER : 0);
        int rc = stream_pipe(fileno(in), &cs);
        free(cs.o); free(cs.mid); free(cs.scratch);
        if (in != stdin) fclose(in);
        if (out != stdout) { if (fclose(out)) rc = rc ? rc : 1; }
        return rc;
    }
    if (mapped) {
        buf = mapped;
    } else {
        buf = read_all(in, &len);
        if (!buf) { fprintf(stderr, "wirepack: out of memory reading the input\n"); return 1; }
    }
    if (in != stdin) fclose(in);
    if (len > 0xFFFFFFF0u) { fprintf(stderr, "wirepack: input larger than 4 GiB\n"); return 1; }
    if (outpath && strcmp(outpath, "-")) {
        out = fopen(outpath, "wb");
        if (!out) { fprintf(stderr, "wirepack: %s: %s\n", outpath, strerror(errno)); return 1; }
    }
    uint32_t n = (uint32_t)len;
    uint32_t sw = wp_transcode_scratch_words(n, max_depth);
    uint32_t *scratch = malloc((size_t)sw * 4);
    if (!scratch) { fprintf(stderr, "wirepack: out of memory\n"); return 1; }
    /* MessagePack and CBOR input are streams; -J one document; -S many */
    uint32_t multi = (from != WP_FMT_JSON || ndjson) ? WP_TC_MULTIPLE : 0;
    int rc = 0;

    if (validate) {
        wp_error err;
        wp_err e = wp_validate(buf, n, from, multi, max_depth, scratch, sw, &err);
        if (e) rc = fail(e, err.offset, from);
        else fprintf(out, "ok\n");
        goto done;
    }
    if (find) {
        wp_path_step steps[256];
        char *names = malloc(strlen(find) + 1);
        uint32_t ns, s, e2;
        wp_error err;
        if (!parse_path(find, steps, 256, &ns, names)) { rc = usage_error("--find wants a JSON Pointer such as /a/0/b:", find); goto done; }
        wp_err e = wp_find(buf, n, from, steps, ns, scratch, sw, &s, &e2, &err);
        if (e) { rc = fail(e, err.offset, from); free(names); goto done; }
        /* print the value found in the output format */
        if (diag || to == WP_FMT_JSON) {
            rc = write_out(buf + s, e2 - s, s, from, WP_FMT_JSON, (diag ? WP_TC_DIAG : 0) | WP_TC_LINES | WP_TC_WIRE_ORDER, indent,
                            max_depth, scratch, sw, out);
        } else {
            wp_transcoder t;
            memset(&t, 0, sizeof t);
            t.in = buf + s; t.len = e2 - s; t.from = from; t.to = to; t.max_depth = max_depth;
            t.out_cap = wp_transcode_out_bound(from, to, t.len);
            t.out = malloc(t.out_cap);
            t.scratch = scratch; t.scratch_cap = sw;
            if (!t.out) { fprintf(stderr, "wirepack: out of memory\n"); rc = 1; }
            else if ((e = wp_transcode(&t)) != WP_OK) rc = fail(e, s + t.err.offset, from);
            else if (fwrite(t.out, 1, t.out_len, out) != t.out_len) { fprintf(stderr, "wirepack: write error\n"); rc = 1; }
            free(t.out);
        }
        free(names);
        goto done;
    }
    wp_err json_err = WP_OK;
    uint32_t json_err_off = 0;
    if ((diag || to == WP_FMT_JSON) && from == WP_FMT_JSON) {
        /* JSON -> JSON (re-indent, NDJSON): through MessagePack */
        uint32_t cap = wp_transcode_out_bound(WP_FMT_JSON, WP_FMT_MSGPACK, n);
        uint8_t *mp = malloc(cap);
        if (!mp) { fprintf(stderr, "wirepack: out of memory\n"); rc = 1; goto done; }
        wp_transcoder t;
        memset(&t, 0, sizeof t);
        t.in = buf; t.len = n; t.from = WP_FMT_JSON; t.to = WP_FMT_MSGPACK; t.flags = multi; t.max_depth = max_depth;
        t.out = mp; t.out_cap = cap; t.scratch = scratch; t.scratch_cap = sw;
        wp_err e = wp_transcode(&t);
        /* on an error, the values before it are still written (as for other formats) */
        if (e) { json_err = e; json_err_off = t.err.offset; if (!multi) t.out_len = 0; }
        if (mapped) munmap(mapped, len); else free(buf);
        mapped = NULL;
        buf = mp;
        n = t.out_len;
        from = WP_FMT_MSGPACK;
        multi = WP_TC_MULTIPLE;
    }
    {
        if (diag) { to = WP_FMT_JSON; flags |= WP_TC_DIAG; }
        if (from == WP_FMT_JSON && !ndjson) {
            /* one document */
            multi = 0;
        }
        /* one call over the whole stream, output flushed as it fills; JSON map keys in wire order
         * (no KEY_ORDER fallback in C) */
        if (to == WP_FMT_JSON) flags |= WP_TC_LINES | WP_TC_WIRE_ORDER;
        rc = write_out(buf, n, 0, from, to, flags | multi, indent, max_depth, scratch, sw, out);
        if (json_err && !rc) rc = fail(json_err, json_err_off, WP_FMT_JSON);
    }
done:
    free(scratch);
    if (mapped) munmap(mapped, len); else free(buf);
    if (out != stdout) { if (fclose(out)) rc = rc ? rc : 1; }
    else if (fflush(out)) rc = rc ? rc : 1;
    return rc;
}
