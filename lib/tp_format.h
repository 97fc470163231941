/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef URINGLINT_TP_FORMAT_H
#define URINGLINT_TP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TP_MAX_FIELDS 24

/* One field of a tracepoint's raw record, as its tracefs format file describes it. */
struct tp_field {
	char name[32];
	int offset, size;
	bool data_loc;		/* __data_loc: a u32 (length << 16 | offset) of a string */
};

/* A tracepoint's id and its fields; offsets differ by kernel, so they are never hard-coded. */
struct tp_format {
	int id;
	struct tp_field fields[TP_MAX_FIELDS];
	unsigned int nfields;
	int opcode_off;		/* u8 opcode, -1 if absent */
	int op_str_off;		/* __data_loc char[] op_str (6.x), -1 if absent */
};

/*
 * Looks up "category/name" in tracefs; when tracefs is not mounted, mounts
 * it in a mount namespace private to this process (root only). 0 or -errno,
 * with why filled.
 */
int tp_format_load(const char *event, struct tp_format *fmt, char *why, size_t whysz);

/* Parses the text of a format file into fmt (id untouched); 0 or -EINVAL. */
int tp_format_parse(const char *text, struct tp_format *fmt);

/* The field called name, or NULL. */
const struct tp_field *tp_field_find(const struct tp_format *fmt, const char *name);

/*
 * The field's value in a raw record, zero-extended from its size (1, 2, 4
 * or 8 bytes); false when the record is too short or the field is absent.
 */
bool tp_field_u64(const struct tp_field *f, const uint8_t *raw, uint32_t len, uint64_t *v);

/* The string a __data_loc field points at, copied and NUL-terminated; false if none. */
bool tp_field_str(const struct tp_field *f, const uint8_t *raw, uint32_t len, char *buf,
		  size_t bufsz);

#endif
