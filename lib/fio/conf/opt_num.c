/* SPDX-License-Identifier: MIT */
/* opt_num: a number option's value read as fio 3.33 reads it (fio/optval.h, fio/opt_ftype.h):
 * each part parsed and checked against fio's bounds, with fio's --debug=parse lines and
 * messages; the value is taken when any part is (fio's rule), and the applier gets what fio
 * keeps of it as a plain number: the first part, the last, or one per direction. A number fio
 * would wrap (a negative size, a time past 2^63 us) is refused, saying what fio would read. */
#include "fio/conf/opt_num.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/conf/opt_value.h"

#define NUM_TEXT	32	/* a canonical number, with its unit */

struct num_part {
	bool ok;
	int64_t v;		/* fio's long long (INT: its int) */
	bool pct;		/* a percentage of a size (STR_VAL... with a callback that takes it) */
	bool zones;		/* a number of zones ('z') */
	bool misread;		/* fio takes it and keeps v out of the option's bounds: refused
				 * when it is the part kept */
	int iv;			/* what fio checked (misread) */
	int64_t read;		/* the number read, before it was kept as an int (misread) */
	int64_t bound;		/* the bound v is past (misread) */
};

static void num_debug_part(struct opt_diag *d, const struct opt_def *od, const struct opt_ftype *ft,
			   const char *val, size_t off, size_t len)
{
	opt_diag_debug(d, "__handle_option=%s, type=%s, ptr=%.*s", od->name, optval_ptype_name(ft->ptype),
		       (int)len, val + off);
}

/* fio's checks of an integer (BOOL, STR_SET): 0 or 1 (the part fails) */
static int num_int_part(struct opt_diag *d, const struct opt_ftype *ft, const char *text, struct num_part *p)
{
	int il = 0;
	int ret = text ? optval_int(text, &il) : 0;

	if (!text)
		il = 1;	/* a bare flag */
	opt_diag_debug(d, "  ret=%d, out=%d", ret, il);
	if (ret)
		return 1;
	if (ft->max && il > ft->max) {
		opt_diag_add(d, false, "max value out of range: %d (%" PRId64 " max)", il, ft->max);
		return 1;
	}
	if (ft->min && il < ft->min) {
		opt_diag_add(d, false, "min value out of range: %d (%" PRId64 " min)", il, ft->min);
		return 1;
	}
	p->v = il;
	return 0;
}

/* What an int option's field keeps of iv: signed where the option takes negative numbers. */
static int64_t int_field(const struct opt_def *od, int iv)
{
	return od->type == OPT_T_INT && od->min < 0 ? (int64_t)iv : (int64_t)(uint32_t)iv;
}

/* fio checks an int option's number as an int, then keeps its low 32 bits: 4294967297 is 1,
 * 1t is 0, and -1 passes a check of "at most 100" and is kept as 4294967295. What fio keeps is
 * taken when the option's bounds allow it (fio's reading); a number kept out of them (a
 * percentage of 4294967295) is marked, and refused by num_text, saying what fio would keep,
 * when it is the part fio keeps. */
static int int_kept(const struct opt_def *od, const struct opt_ftype *ft, int iv, struct num_part *p)
{
	int64_t kept = int_field(od, iv);
	int64_t lo = ft->min, hi = ft->max;

	if (od->type == OPT_T_INT && od->min > lo)
		lo = od->min;
	if (od->type == OPT_T_INT && od->max != OPT_NOMAX && (!hi || od->max < hi))
		hi = od->max;
	/* out of bounds as fio checked it (iodepth=100000): the applier's own line says so */
	p->misread = (kept < lo || (hi && kept > hi)) && ((int64_t)iv != kept || kept != p->v);
	p->iv = iv;
	p->read = p->v;
	p->bound = kept < lo ? lo : hi;
	p->v = kept;
	return 0;
}

/* fio's parse and checks of a number (INT, ULL, STR_VAL...): 0 or 1 */
static int num_dec_part(struct opt_job *oj, const struct opt_def *od, struct opt_diag *d, const struct opt_ftype *ft,
			const char *text, size_t len, int64_t *carry, struct num_part *p)
{
	int ret;

	if (optval_zone_suffix(text, len)) {
		if (ft->ptype != OPTVAL_STR_VAL_ZONE) {
			opt_diag_add(d, false, "%s: 'z' suffix isn't applicable", od->name);
			return 1;
		}
		/* a number of zones: fio prints no value for it */
		if (optval_decimal(text, 1024, &p->v) || p->v < 0) {
			opt_diag_add(d, false, "%s: unexpected zone value '%.*s'", od->name, (int)len, text);
			return 1;
		}
		p->zones = true;
		return 0;
	}
	if (ft->num == OPT_NUM_DEC)
		ret = optval_decimal(text, oj->j.kb_base == 1000 ? 1000 : 1024, carry);
	else
		ret = optval_time(text, ft->num == OPT_NUM_TIME_S, carry);
	opt_diag_debug(d, "  ret=%d, out=%" PRIu64, ret, (uint64_t)*carry);
	if (ret)
		return 1;
	p->v = *carry;
	if (ft->pow2 && (!p->v || ((uint64_t)p->v & ((uint64_t)p->v - 1)))) {
		opt_diag_add(d, false, "%s: must be a power-of-2", od->name);
		return 1;
	}
	if (ft->ptype == OPTVAL_INT) {
		int iv = (int)p->v;	/* fio compares an int option's number as an int */

		if (ft->max && iv > ft->max) {
			opt_diag_add(d, false, "%s: max value out of range: %lld (%" PRId64 " max)", od->name,
				     (long long)p->v, ft->max);
			return 1;
		}
		if (ft->min && iv < ft->min) {
			opt_diag_add(d, false, "%s: min value out of range: %lld (%" PRId64 " min)", od->name,
				     (long long)p->v, ft->min);
			return 1;
		}
		if (ft->store != OPT_STORE_LAST || od->type == OPT_T_INT)
			return int_kept(od, ft, iv, p);
		return 0;
	}
	if (ft->max && (uint64_t)p->v > (uint64_t)ft->max) {
		opt_diag_add(d, false, "%s: max value out of range: %" PRIu64 " (%" PRId64 " max)", od->name,
			     (uint64_t)p->v, ft->max);
		return 1;
	}
	if (ft->min && (uint64_t)p->v < (uint64_t)ft->min) {
		opt_diag_add(d, false, "%s: min value out of range: %" PRIu64 " (%" PRId64 " min)", od->name,
			     (uint64_t)p->v, ft->min);
		return 1;
	}
	if (ft->pct && p->v <= -1 && p->v >= -101) {
		p->pct = true;
		opt_diag_debug(d, "SET %s %d", ft->pct, (int)(-1 - p->v));
	}
	return 0;
}

/* The plain text of one part's value, for the applier. */
static int num_text(const struct opt_def *od, const struct opt_ftype *ft, const char *val, const struct num_part *p,
		    char *buf, size_t cap, struct opt_diag *d)
{
	int n;

	if (p->misread) {
		opt_diag_add(d, false, "fio: %s=%s: fio 3.33 reads %" PRIu64 ", checks it as the int %d and keeps %" PRId64
			     ", %s %" PRId64 ": iops refuses it", od->name, val, (uint64_t)p->read, p->iv, p->v,
			     p->v < p->bound ? "below its least," : "past its largest,", p->bound);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	if (ft->ptype == OPTVAL_BOOL || ft->ptype == OPTVAL_STR_SET)
		n = snprintf(buf, cap, "%d", p->v != 0);
	else if (p->zones)
		n = snprintf(buf, cap, "%" PRId64 "z", p->v);
	else if (p->pct)
		n = -1 - p->v ? snprintf(buf, cap, "%" PRId64 "%%", -1 - p->v) : snprintf(buf, cap, "0");
	else if (ft->ptype == OPTVAL_INT && ft->store != OPT_STORE_LAST && ft->num == OPT_NUM_DEC)
		n = snprintf(buf, cap, "%" PRId64, p->v);
	else if (p->v < 0 && ft->u64 && ft->num == OPT_NUM_DEC)
		n = snprintf(buf, cap, "%" PRIu64, (uint64_t)p->v);
	else if (p->v < 0) {
		opt_diag_add(d, false, "fio: %s=%s: fio 3.33 reads %" PRIu64 "%s, past 2^63 - 1 (%s): iops refuses it",
			     od->name, val, (uint64_t)p->v, ft->num == OPT_NUM_DEC ? "" : " us",
			     strchr(val, '-') ? "a negative number, wrapped" : "no file, size or time is that large");
		return -EINVAL;
	} else if (ft->num != OPT_NUM_DEC)
		n = snprintf(buf, cap, "%" PRId64 "us", p->v);
	else
		n = snprintf(buf, cap, "%" PRId64, p->v);
	return n < 0 || (size_t)n >= cap ? -EINVAL : 0;
}

/* The applier refused text, the number fio kept of val: its "failed parsing" line quotes val. */
static int num_applied(const struct opt_def *od, const char *val, const char *text, int ret, struct opt_diag *d)
{
	char want[OPT_DIAG_LEN];

	if (!ret || !d || !d->nr || !val)
		return ret;
	if (snprintf(want, sizeof(want), "fio: failed parsing %s=%s", od->name, text) < (int)sizeof(want) &&
	    !strcmp(d->line[d->nr - 1], want))
		(void)snprintf(d->line[d->nr - 1], OPT_DIAG_LEN, "fio: failed parsing %s=%s", od->name, val);
	return ret;
}

int opt_num_apply(struct opt_job *oj, const struct opt_def *od, const struct opt_ftype *ft, const char *val,
		  struct opt_diag *d)
{
	size_t off[OPTVAL_PARTS_MAX], len[OPTVAL_PARTS_MAX];
	bool more[OPTVAL_PARTS_MAX];
	struct num_part parts[OPTVAL_PARTS_MAX];
	char text[3][NUM_TEXT], all[3 * NUM_TEXT + 2];
	unsigned n, nr_ok = 0, last = 0;
	int64_t carry = 0;	/* fio prints a failed part's value as the last one read */
	bool integer = ft->ptype == OPTVAL_BOOL || ft->ptype == OPTVAL_STR_SET;
	int ret;

	if (!val)
		n = 1, off[0] = len[0] = 0, more[0] = false;
	else
		n = optval_split(ft->ptype, val, off, len, more, OPTVAL_PARTS_MAX);
	for (unsigned i = 0; i < n; i++) {
		char part[OPT_VALUE_MAX > 4096 ? 4096 : OPT_VALUE_MAX];
		size_t l = len[i] < sizeof(part) - 1 ? len[i] : sizeof(part) - 1;

		memset(&parts[i], 0, sizeof(parts[i]));
		if (i)
			num_debug_part(d, od, ft, val, off[i], len[i]);
		if (val) {
			memcpy(part, val + off[i], l);
			part[l] = '\0';
		}
		if (integer ? num_int_part(d, ft, val ? part : NULL, &parts[i])
			    : num_dec_part(oj, od, d, ft, part, l, &carry, &parts[i]))
			continue;
		parts[i].ok = true;
		nr_ok++;
		last = i;
	}
	if (!nr_ok) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	switch (ft->store) {
	case OPT_STORE_PAIR:
		if (n == 1 || (parts[0].ok && parts[1].ok && parts[0].v == parts[1].v)) {
			last = parts[0].ok ? 0 : 1;	/* one value: not a range */
			goto one;
		}
		goto slots;
	case OPT_STORE_FIRST:
		if (!parts[0].ok)
			return 0;	/* taken, but fio stores nothing */
		last = 0;
		/* fallthrough */
	case OPT_STORE_LAST:
one:
		ret = num_text(od, ft, val, &parts[last], text[0], sizeof(text[0]), d);
		return ret ? ret : num_applied(od, val, text[0], od->apply(oj, od, text[0], d), d);
	case OPT_STORE_DDIR:
slots: {
		unsigned slots = ft->store == OPT_STORE_DDIR ? 3 : 2;
		int m;

		for (unsigned s = 0; s < slots; s++) {
			const struct num_part *p = s < n && parts[s].ok ? &parts[s] : NULL;

			/* the last part given also sets the slots after it */
			if (s >= n && parts[n - 1].ok)
				p = &parts[n - 1];
			text[s][0] = '\0';
			if (!p && ft->store == OPT_STORE_PAIR && !s)
				(void)snprintf(text[s], sizeof(text[s]), "0");	/* fio keeps the low end unset */
			if (p && (ret = num_text(od, ft, val, p, text[s], sizeof(text[s]), d)))
				return ret;
		}
		m = slots == 3 ? snprintf(all, sizeof(all), "%s,%s,%s", text[0], text[1], text[2])
			       : snprintf(all, sizeof(all), "%s-%s", text[0], text[1]);
		if (m < 0 || (size_t)m >= sizeof(all))
			return -EINVAL;
		return num_applied(od, val, all, od->apply(oj, od, all, d), d);
	}
	}
	return -EINVAL;
}

int opt_num_float_apply(struct opt_job *oj, const struct opt_def *od, const struct opt_ftype *ft, const char *val,
			struct opt_diag *d)
{
	size_t off[OPTVAL_PARTS_MAX], len[OPTVAL_PARTS_MAX];
	bool more[OPTVAL_PARTS_MAX];
	double vals[OPTVAL_PARTS_MAX] = { 0 };
	unsigned n = optval_split(OPTVAL_FLOAT_LIST, val, off, len, more, OPTVAL_PARTS_MAX), nr = 0, nr_ok = 0;
	int prec = 0;
	char *text;
	size_t cap, used;

	for (unsigned i = 0; i < n; i++) {
		const char *p = val + off[i], *dot;
		double f;

		if (i)
			num_debug_part(d, od, ft, val, off[i], len[i]);
		if (i >= ft->maxlen) {
			opt_diag_add(d, false, "the list exceeding max length %u", ft->maxlen);
			continue;
		}
		if (optval_float(p, &f, &used)) {
			opt_diag_add(d, false, "not a floating point value: %s", p);
			continue;
		}
		if (ft->fmin != 0.0 || ft->fmax != 0.0) {
			if (f > ft->fmax) {
				opt_diag_add(d, false, "value out of range: %f (range max: %f)", f, ft->fmax);
				continue;
			}
			if (f < ft->fmin) {
				opt_diag_add(d, false, "value out of range: %f (range min: %f)", f, ft->fmin);
				continue;
			}
		}
		vals[i] = f;
		opt_diag_debug(d, "  out=%f", f);
		/* fio's precision: the digits after the first '.' of the rest of the value */
		dot = strchr(p, '.');
		if (dot) {
			int l = 0;

			while (dot[1 + l] >= '0' && dot[1 + l] <= '9')
				l++;
			if (l > prec)
				prec = l;
		}
		nr_ok++;
		nr = i + 1;
	}
	if (!nr_ok) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	/* the values fio stores, a failed part's as 0, with fio's precision */
	cap = (size_t)nr * (size_t)(32 + prec) + 1;
	text = malloc(cap);
	if (!text) {
		opt_diag_add(d, false, "fio: out of memory");
		return -ENOMEM;
	}
	used = 0;
	for (unsigned i = 0; i < nr; i++) {
		int m = snprintf(text + used, cap - used, "%s%.*f", i ? ":" : "", prec, vals[i]);

		if (m < 0 || (size_t)m >= cap - used) {
			free(text);
			return -EINVAL;
		}
		used += (size_t)m;
	}
	{
		int ret = num_applied(od, val, text, od->apply(oj, od, text, d), d);

		free(text);
		return ret;
	}
}
