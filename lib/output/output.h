/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_OUTPUT_H
#define URINGLINT_OUTPUT_H

/* lib/output/: output helpers: JSON, escaping, wrapping, UTF-8 and units. */

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* json_put.c */

/*
 * A JSON object written key by key, as json-c writes the object it would
 * have built (JSON_C_TO_STRING_SPACED: { "a": 1, "b": "x" }), without
 * building it: an audit's 10,000 files cost more as json-c objects (an
 * object, a hash table and a value each per key) than as their reading.
 * Strings keep the rules of lib/output/json_bytes.c and json-c's own escaping. Objects
 * (and json_put_raw()'s separators) are put together in memory and written
 * to out in blocks of about 64 KiB, the rest at json_put_flush(): nothing
 * else may write to out in between. The small writers are inline: with the
 * key's length a constant, each key is a few stores, not a call.
 */
struct json_put {
	FILE *out;
	char *buf;			/* what is not written yet */
	size_t len, cap;
	bool any;			/* the open object has a key */
	bool failed;
};

#define JSON_PUT_BLOCK (64 * 1024)

void json_put_init(struct json_put *p, FILE *out);
void json_put_free(struct json_put *p);

/* Room for len more bytes (the slow path of json_put_room). */
char *json_put_grow(struct json_put *p, size_t len);

/* Room for len more bytes, or NULL (then the writer has failed). */
static inline char *json_put_room(struct json_put *p, size_t len)
{
	if (__builtin_expect(p->failed, 0))
		return NULL;
	if (__builtin_expect(p->len + len > p->cap, 0))
		return json_put_grow(p, len);
	p->len += len;
	return p->buf + p->len - len;
}

static inline void json_put_len(struct json_put *p, const char *s, size_t len)
{
	char *d = json_put_room(p, len);

	if (d)
		memcpy(d, s, len);
}

/* Text between objects (", " in an array). */
static inline void json_put_raw(struct json_put *p, const char *s)
{
	json_put_len(p, s, strlen(s));
}

static inline void json_put_begin(struct json_put *p)
{
	p->any = false;
}

/*
 * Keys are the writer's own names: nothing in them to escape. key is
 * ", \"KEY\": " (JSON_PUT_KEY); the first of an object opens it, its comma
 * turned into the brace.
 */
static inline void json_put_key(struct json_put *p, const char *key, size_t len)
{
	char *d = json_put_room(p, len);

	if (!d)
		return;
	memcpy(d, key, len);
	if (!p->any)
		d[0] = '{';
	p->any = true;
}

static inline void json_put_int_n(struct json_put *p, const char *key, size_t klen, int64_t v)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	char buf[24], *end = buf + sizeof(buf), *s = end;

	do {
		*--s = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--s = '-';
	json_put_key(p, key, klen);
	json_put_len(p, s, (size_t)(end - s));
}

/* The value, or null when it is not known. */
static inline void json_put_int_known_n(struct json_put *p, const char *key, size_t klen,
					bool known, int64_t v)
{
	if (known) {
		json_put_int_n(p, key, klen, v);
		return;
	}
	json_put_key(p, key, klen);
	json_put_len(p, "null", 4);
}

static inline void json_put_bool_n(struct json_put *p, const char *key, size_t klen, bool v)
{
	json_put_key(p, key, klen);
	if (v)
		json_put_len(p, "true", 4);
	else
		json_put_len(p, "false", 5);
}

/* v in octal, as the string "0NNN" (open flags, as printf "0%o" writes them). */
static inline void json_put_octal_n(struct json_put *p, const char *key, size_t klen,
				    unsigned int v)
{
	char buf[16], *end = buf + sizeof(buf), *s = end;

	*--s = '"';
	do {
		*--s = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	*--s = '0';
	*--s = '"';
	json_put_key(p, key, klen);
	json_put_len(p, s, (size_t)(end - s));
}

/* A string of the writer's own ("rw"): nothing in it to escape or check. */
static inline void json_put_literal_n(struct json_put *p, const char *key, size_t klen,
				      const char *s, size_t len)
{
	char *d;

	json_put_key(p, key, klen);
	d = json_put_room(p, len + 2);
	if (!d)
		return;
	d[0] = '"';
	memcpy(d + 1, s, len);
	d[len + 1] = '"';
}

/* As json_bytes_string(); NULL writes null. */
void json_put_string_n(struct json_put *p, const char *key, size_t klen, const char *s);
/* As json_add_bytes(): KEY_base64 follows when s is not UTF-8. */
void json_put_bytes_n(struct json_put *p, const char *key, size_t klen, const char *s);

/* The key as written after another: ", \"KEY\": " (put_key() drops the comma for the first). */
#define JSON_PUT_KEY(key) (", \"" key "\": "), sizeof(", \"" key "\": ") - 1
#define json_put_int(p, key, v) json_put_int_n((p), JSON_PUT_KEY(key), (v))
#define json_put_int_known(p, key, known, v) json_put_int_known_n((p), JSON_PUT_KEY(key), (known), (v))
#define json_put_bool(p, key, v) json_put_bool_n((p), JSON_PUT_KEY(key), (v))
#define json_put_string(p, key, s) json_put_string_n((p), JSON_PUT_KEY(key), (s))
#define json_put_literal(p, key, s) json_put_literal_n((p), JSON_PUT_KEY(key), (s), sizeof(s) - 1)
#define json_put_bytes(p, key, s) json_put_bytes_n((p), JSON_PUT_KEY(key), (s))
#define json_put_octal(p, key, v) json_put_octal_n((p), JSON_PUT_KEY(key), (v))
/*
 * Closes the object, and writes what is put together once it passes
 * JSON_PUT_BLOCK: 0, or -EIO when some write failed.
 */
int json_put_end(struct json_put *p);
/* Writes what is left: 0, or -EIO when this or an earlier write failed. */
int json_put_flush(struct json_put *p);

/*
 * An object too large to build whole: o (its small keys, as json-c writes
 * them) without its closing brace, then ', "KEY": [', for the caller to
 * stream the array's objects and close with "] }". Puts o. 0 or -EIO.
 */
int json_put_head(FILE *out, struct json_object *o, const char *key);


/* json_bytes.c */

/*
 * JSON strings for bytes that may not be UTF-8 (file paths, comm, mount
 * sources). json-c writes a string's bytes as they are, and a document
 * with a byte that is not UTF-8 is not JSON (RFC 8259, section 8.1).
 *
 * The contract: a string that is well-formed UTF-8 is carried exactly.
 * Otherwise each byte that is not part of a well-formed sequence is
 * written as the four characters \xHH (so the key stays readable), and
 * where the bytes matter (paths, comm, subject, evidence) a sibling key
 * KEY_base64 holds the exact bytes in base64 (RFC 4648, with padding).
 * KEY_base64 is absent when KEY is exact.
 */

/* The string, with bytes that are not UTF-8 as \xHH; never NULL. */
struct json_object *json_bytes_string(const char *s);

/* The bytes in base64 (RFC 4648, with padding), on the heap; never NULL. */
char *json_base64(const void *s, size_t n);

/* Adds key (as json_bytes_string) and, when s is not UTF-8, key_base64. s NULL adds null. */
void json_add_bytes(struct json_object *o, const char *key, const char *s);


/* escape.c */

/*
 * The one rule for strings that reach a person: text, Markdown, JUnit,
 * Prometheus labels and stderr. Names come from other users' processes
 * (comm, thread names, file paths) and may hold any byte but NUL. Every
 * byte a terminal or a line-based reader could act on is shown as visible
 * ASCII, as ls -b and systemd's cescape do:
 *
 *   \a \b \t \n \v \f \r \e    those controls
 *   \xHH                        other C0 controls, DEL, bytes not UTF-8
 *   \uHHHH                      C1 controls, bidi and line-separator
 *                               marks, U+FFFE and U+FFFF
 *   \\                          a backslash, so the form is unambiguous
 *
 * Well-formed UTF-8 passes as it is. The result is well-formed UTF-8 with
 * no control character and nothing XML 1.0 refuses.
 */
enum escape_flags {
	/* Also backslash Markdown's metacharacters: the text renders as in text output. */
	ESCAPE_MARKDOWN = 1 << 0,
	/* For text that is already escaped (JSON): a backslash passes as it is. */
	ESCAPE_KEEP_BACKSLASH = 1 << 1,
};

/* What a shortened result ends with: visible, and plain ASCII. */
#define ESCAPE_ELLIPSIS "..."

/*
 * The escaped form of s, on the heap (never NULL: out of memory ends the
 * run). max 0: unbounded; otherwise at most max bytes (max > 3), shortened
 * at an escape or character boundary and ended with ESCAPE_ELLIPSIS.
 */
char *escape_text(const char *s, size_t max, unsigned int flags);

/*
 * s on the heap, whole when it has at most max bytes (max > 3), otherwise
 * cut at a UTF-8 character boundary to at most max bytes that end with
 * ESCAPE_ELLIPSIS. Not escaped: for a value from an input file that a
 * writer or an error message escapes on its way out, bounded first so
 * that a huge one cannot flood either.
 */
char *text_cut(const char *s, size_t max);


/* textwrap.c */

/*
 * Prints text and a newline, starting at column col, breaking at spaces
 * before width and continuing at column indent. width 0: one line.
 */
void text_wrap(FILE *out, const char *text, size_t col, size_t indent, size_t width);


/* utf8.c */

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at s, of at most n
 * bytes, and its code point in *cp; 0 when s does not start one: a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut
 * short. Names from other processes are bytes, not text: this is the test.
 */
size_t utf8_seq_len(const char *s, size_t n, uint32_t *cp);

/* Whether the NUL-terminated s is well-formed UTF-8 throughout. */
bool utf8_valid(const char *s);


/* units.c */

#define BYTES_STR_MAX 32

/* "8 MiB", "400 KiB", "1.5 GiB", "4095 B"; UINT64_MAX prints "unlimited". */
const char *format_bytes(uint64_t v, char buf[BYTES_STR_MAX]);


/* catf.c */

/*
 * Appends to the NUL-terminated text in buf, printf-style: the messages
 * checks build piece by piece. What does not fit in bufsz is cut on a
 * character boundary and marked with "…"; appends after a cut add nothing.
 */
__attribute__((format(printf, 3, 4)))
void catf(char *buf, size_t bufsz, const char *fmt, ...);


#endif
