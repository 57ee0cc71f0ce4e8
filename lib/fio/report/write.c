/* SPDX-License-Identifier: MIT */
#include "fio/report/write.h"

#include <errno.h>
#include <sys/utsname.h>

#include "fio/report/out_json.h"
#include "fio/report/out_normal.h"
#include "fio/report/out_openmetrics.h"
#include "fio/report/out_terse.h"
#include "fio/report/unified.h"

int report_build(struct report *rep, const struct fio_config *cfg, struct job_result *const *res,
		 unsigned nr_res)
{
	int rc = report_build_units(rep, cfg, res, nr_res);

	if (rc)
		return rc;
	if (unified_apply(rep) < 0) {	/* unified_rw_reporting */
		report_release(rep);
		return -ENOMEM;
	}
	report_sum_groups(rep);
	return 0;
}

int report_write(FILE *out, const struct report *rep)
{
	return report_write_formats(out, rep, rep->cfg->output_format);
}

int report_write_formats(FILE *out, const struct report *rep, unsigned fmt)
{
	int rc = 0, r;

	fmt = fmt ? fmt : OUT_NORMAL;
	if (fmt & OUT_TERSE) {
		r = out_terse_print(out, rep);
		rc = rc ? rc : r;
	}
	if (fmt & (OUT_JSON | OUT_JSON_PLUS)) {
		r = out_json_print(out, rep, (fmt & OUT_JSON_PLUS) != 0);
		rc = rc ? rc : r;
	}
	if (fmt & OUT_NORMAL) {
		r = out_normal_print(out, rep);
		rc = rc ? rc : r;
	}
	if (fmt & OUT_OPENMETRICS) {	/* last: "# EOF" ends the stream */
		struct utsname un;

		r = out_openmetrics_print(out, rep, uname(&un) == 0 ? un.nodename : NULL);
		rc = rc ? rc : r;
	}
	if (fflush(out) != 0 || ferror(out))
		rc = rc ? rc : (errno ? -errno : -EIO);
	return rc;
}

int report_print(FILE *out, const struct fio_config *cfg, struct job_result *const *res,
		 unsigned nr_res, const struct disk_result *disks, unsigned nr_disks)
{
	return report_print_idle(out, cfg, res, nr_res, disks, nr_disks, NULL);
}

int report_print_idle(FILE *out, const struct fio_config *cfg, struct job_result *const *res,
		      unsigned nr_res, const struct disk_result *disks, unsigned nr_disks,
		      const struct idle_result *idle)
{
	struct report rep;
	int rc = report_build(&rep, cfg, res, nr_res);

	if (rc)
		return rc;
	rep.idle = idle;
	rep.disks = disks;
	rep.nr_disks = nr_disks;
	rc = report_write(out, &rep);
	report_release(&rep);
	return rc;
}
